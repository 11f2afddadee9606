import { formText } from '#web/lib/form-data';

/** The contact form's fields as sent (the form posts them to the /contact route's action). */
export interface ContactFormValues {
  name: string;
  email: string;
  orderNumber: string;
  message: string;
}

/**
 * What the /contact action answers: sent, or the message to show with the fields at fault and what
 * was typed (a round trip without the code keeps it).
 */
export type ContactFormResult =
  | { sent: true }
  | {
      error: { message: string; fields?: Partial<Record<keyof ContactFormValues, string>> };
      values: ContactFormValues;
    };

export function contactFormValues(form: FormData): ContactFormValues {
  return {
    name: formText(form, 'name'),
    email: formText(form, 'email'),
    orderNumber: formText(form, 'orderNumber'),
    message: formText(form, 'message'),
  };
}
