import type { Context } from 'hono';
import type { AppEnv } from './hono-env';
import { chooseEncoding, etagOf, matchesIfNoneMatch, type Bytes, type PreparedBody } from './prepared-body';

/**
 * Answers with a prepared body: 304 without a body when If-None-Match names it, else its bytes in
 * the best encoding the client accepts (made once, see prepared-body.ts), with a strong ETag and
 * `Vary: Accept-Encoding`. The compress middleware leaves it alone (it is already encoded, or the
 * client asked for no encoding). The security headers are added by their middleware as on any
 * response. The answer is made at once (no promise) unless a compressed form is still being made.
 */
export function sendPrepared(
  c: Context<AppEnv>,
  body: PreparedBody,
  cacheControl: string,
): Response | Promise<Response> {
  const encoding = chooseEncoding(c.req.header('accept-encoding'), body.bytes.length);
  const etag = etagOf(body, encoding);
  if (matchesIfNoneMatch(c.req.header('if-none-match'), body)) {
    return c.body(null, 304, { 'Cache-Control': cacheControl, ETag: etag, Vary: 'Accept-Encoding' });
  }
  const send = (bytes: Bytes): Response => {
    const headers: Record<string, string> = {
      'Cache-Control': cacheControl,
      ETag: etag,
      Vary: 'Accept-Encoding',
      'Content-Type': body.contentType,
      // Its length told, the compress middleware leaves a body too small to be worth compressing alone.
      'Content-Length': String(bytes.length),
    };
    if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
    return c.body(bytes, 200, headers);
  };
  if (encoding === 'identity') return send(body.bytes);
  const made = body.encodedNow(encoding);
  return made ? send(made) : body.encoded(encoding).then(send);
}
