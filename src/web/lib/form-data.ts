import type { z } from 'zod';

/** The text value of a form field ('' when missing or a file). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** A form's field errors from a zod failure: each field's first message, by its top-level name. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const found: Record<string, string> = {};
  for (const issue of error.issues) found[String(issue.path[0] ?? '_')] ??= issue.message;
  return found;
}
