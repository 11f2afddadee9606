import type { Context, ValidationTargets } from 'hono';
import { validator } from 'hono/validator';
import type { z } from 'zod';
import { AppError } from './app-error';

/** Field path -> first message, for the `fields` of a VALIDATION_FAILED error. */
export function zodFields(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

export function validationError(error: z.ZodError): AppError {
  const fields = zodFields(error);
  const [firstKey, firstMessage] = Object.entries(fields)[0] ?? ['_', 'Invalid input'];
  const message = firstKey === '_' ? firstMessage : `${firstKey}: ${firstMessage}`;
  return new AppError('VALIDATION_FAILED', message, fields);
}

/**
 * Route validator: parses one request part with a shared zod schema; 400 naming the field on
 * failure. Typed: `c.req.valid(target)` is the schema's output.
 */
export function validate<T extends keyof ValidationTargets, S extends z.ZodType>(target: T, schema: S) {
  return validator(target, (value, _c: Context) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw validationError(parsed.error);
    return parsed.data;
  });
}
