import { isApiError } from '../../../lib/api-client';

/**
 * The message the server put in its error body, or `fallback` when it gave none: no answer at all
 * (network error), or an answer without an error body (the api client then only knows the status,
 * "Request failed (502)"). For the spec's "fallback when the server gives no message" texts.
 */
export function serverMessage(error: unknown, fallback: string): string {
  if (!isApiError(error) || error.status === 0) return fallback;
  const message = error.message.trim();
  return message === '' || message === `Request failed (${error.status})` ? fallback : message;
}
