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

const JSON_CONTENT_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/** A body declared as JSON, or no body at all (a POST without one: the schema sees {}). */
function isJsonOrEmpty(c: Context): boolean {
  const type = c.req.header('content-type');
  if (type !== undefined && type.trim() !== '') return JSON_CONTENT_TYPE.test(type);
  const length = c.req.header('content-length');
  return c.req.header('transfer-encoding') === undefined && (length === undefined || Number(length) === 0);
}

const NUL_MESSAGE = 'must not contain NUL characters';

/**
 * The path of the first string (or object key) in `value` holding a NUL character, or null.
 * PostgreSQL text can not store U+0000: such input would fail in the database as a 500.
 */
export function findNulPath(
  value: unknown,
  path: readonly (string | number)[] = [],
  depth = 0,
): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? pathKey(path) : null;
  if (depth > 64 || typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNulPath(value[i], [...path, i], depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return pathKey(path);
    const found = findNulPath(item, [...path, key], depth + 1);
    if (found !== null) return found;
  }
  return null;
}

function pathKey(path: readonly (string | number)[]): string {
  return path.length > 0 ? path.map(String).join('.') : '_';
}

/**
 * Route validator: parses one request part with a shared zod schema; 400 naming the field on
 * failure (including a string with a NUL character, which the database can not store). Typed:
 * `c.req.valid(target)` is the schema's output.
 */
export function validate<T extends keyof ValidationTargets, S extends z.ZodType>(target: T, schema: S) {
  const check = validator(target, (value, c: Context) => {
    // Hono reads a JSON body only when it is declared as JSON, and hands over {} otherwise: a form
    // or text body would pass a schema whose fields are all optional as an empty object.
    if (target === 'json' && !isJsonOrEmpty(c)) {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Request body must be JSON (Content-Type: application/json)',
      );
    }
    const nulField = findNulPath(value);
    if (nulField !== null) {
      const message = nulField === '_' ? `Input ${NUL_MESSAGE}` : `${nulField} ${NUL_MESSAGE}`;
      throw new AppError('VALIDATION_FAILED', nulField === '_' ? message : `${nulField}: ${message}`, {
        [nulField]: message,
      });
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw validationError(parsed.error);
    return parsed.data;
  });
  if (target !== 'json') return check;
  // A write without a body still declares JSON (the CSRF rule): its empty body is read as {}, as a
  // bodiless request without a content type always was, instead of as malformed JSON.
  const emptyJsonAsObject: typeof check = async (c, next) => {
    if (JSON_CONTENT_TYPE.test(c.req.header('content-type') ?? '') && (await c.req.text()).trim() === '') {
      // Hono keeps each read of the body as a promise in bodyCache (its type says the value).
      (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve('{}');
    }
    return check(c, next);
  };
  return emptyJsonAsObject;
}
