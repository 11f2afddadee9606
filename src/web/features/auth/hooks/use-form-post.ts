import { useState } from 'react';
import { useActionData, useNavigation, useSubmit } from 'react-router';
import { formText } from '#web/lib/form-data';
import { INTENT } from '../api/form-results';

/**
 * How the sign-in pages' forms post. Each is a route <Form method="post">: before the page's code
 * has arrived (or without JavaScript) the browser posts it to the route's action and shows the page
 * the server renders with the answer. Once the code runs, the form checks its fields first and then
 * posts the same fields through React Router (`post`), which runs the route's clientAction around
 * the same server action. `pendingIntent` names the post on its way (until the page it leads to
 * has loaded), for the pressed button's busy state.
 */
export function useFormPost() {
  const submit = useSubmit();
  const navigation = useNavigation();
  const posting =
    navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST'
      ? navigation.formData
      : undefined;
  return {
    post: (form: FormData) => void submit(form, { method: 'post' }),
    pendingIntent: posting ? formText(posting, INTENT) : undefined,
  };
}

/**
 * The route's latest action answer, which the page may set aside (a switch of mode, 'Use a
 * different password') until the next answer arrives.
 */
export function useActionResult<T>(): [result: T | undefined, setAside: () => void] {
  const actionData = useActionData<T>() as T | undefined;
  const [setAsideData, setSetAsideData] = useState<T | undefined>(undefined);
  return [actionData === setAsideData ? undefined : actionData, () => setSetAsideData(actionData)];
}
