import { request as httpsRequest } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * HTTPS from the test to Caddy, trusting only Caddy's private CA (its root certificate), as a
 * client of a real deployment trusts the public CAs: no certificate check is switched off.
 */
export interface HttpsAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text(): string;
  json<T>(): T;
  /** The `name=value` parts of the Set-Cookie headers, for a Cookie header. */
  cookies(): string;
}

export function httpsClient(ca: string) {
  return function fetchHttps(
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
  ): Promise<HttpsAnswer> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(url, { method: init.method ?? 'GET', headers: init.headers, ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text: () => body.toString('utf8'),
            json: <T>() => JSON.parse(body.toString('utf8')) as T,
            cookies: () => (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; '),
          });
        });
      });
      req.on('error', reject);
      req.setTimeout(15_000, () => req.destroy(new Error(`timed out: ${url}`)));
      if (init.body !== undefined) req.write(init.body);
      req.end();
    });
  };
}

export type FetchHttps = ReturnType<typeof httpsClient>;
