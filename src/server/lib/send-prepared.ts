import type { Context } from 'hono';
import type { AppEnv } from './hono-env';
import { chooseEncoding, etagOf, matchesIfNoneMatch, type PreparedBody } from './prepared-body';

/**
 * Answers with a prepared body: 304 without a body when If-None-Match names it, else its bytes in
 * the best encoding the client accepts (made once, see prepared-body.ts), with a strong ETag and
 * `Vary: Accept-Encoding`. The compress middleware leaves it alone (it is already encoded, or the
 * client asked for no encoding). The security headers are added by their middleware as on any
 * response.
 */
export async function sendPrepared(
  c: Context<AppEnv>,
  body: PreparedBody,
  cacheControl: string,
): Promise<Response> {
  const encoding = chooseEncoding(c.req.header('accept-encoding'), body.bytes.length);
  const headers: Record<string, string> = {
    'Cache-Control': cacheControl,
    ETag: etagOf(body, encoding),
    Vary: 'Accept-Encoding',
  };
  if (matchesIfNoneMatch(c.req.header('if-none-match'), body)) return c.body(null, 304, headers);
  headers['Content-Type'] = body.contentType;
  const bytes = encoding === 'identity' ? body.bytes : await body.encoded(encoding);
  if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
  // Its length told, the compress middleware leaves a body too small to be worth compressing alone.
  headers['Content-Length'] = String(bytes.length);
  return c.body(bytes, 200, headers);
}
