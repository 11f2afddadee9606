/**
 * A minimal HTTP client for the load benches: one keep-alive connection per simulated shopper,
 * from its own loopback address (127.0.0.0/8 is all loopback on Linux, so each shopper is a
 * distinct client address to the shop without any proxy header), with its own cookie jar.
 * Latency is measured from the request's start to the last byte of the body.
 */
import http from 'node:http';

export interface Answer {
  status: number;
  body: string;
  ms: number;
}

export class Shopper {
  private readonly agent: http.Agent;
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    /** The shopper's source address, e.g. 127.0.0.7. */
    readonly address: string,
    private readonly origin: string,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: address });
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, json?: unknown): Promise<Answer> {
    return this.request(
      'POST',
      path,
      json === undefined ? undefined : JSON.stringify(json),
      // As the web app's api-client: a POST says JSON even without a body.
      { 'content-type': 'application/json' },
    );
  }

  request(
    method: string,
    path: string,
    body: string | undefined,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const url = new URL(path, this.baseUrl);
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const started = performance.now();
    return new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method,
          agent: this.agent,
          headers: {
            accept: 'application/json, text/html;q=0.9',
            ...(method === 'GET' ? {} : { origin: this.origin }),
            ...(cookie ? { cookie } : {}),
            ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
            ...headers,
          },
        },
        (res) => {
          for (const line of res.headers['set-cookie'] ?? []) {
            const [pair = ''] = line.split(';');
            const eq = pair.indexOf('=');
            if (eq <= 0) continue;
            const name = pair.slice(0, eq).trim();
            const value = pair.slice(eq + 1).trim();
            if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
            else this.cookies.set(name, value);
          }
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              ms: performance.now() - started,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The i-th shopper's loopback address: 127.0.1.2, 127.0.1.3, ... (127.0.0.1 stays the bench's own). */
export function shopperAddress(i: number): string {
  return `127.0.${Math.floor(i / 250) + 1}.${(i % 250) + 2}`;
}

/** The shipping details every bench shopper checks out with (the checkout's ShippingInfo). */
export const BENCH_SHIPPING = {
  firstName: 'Bench',
  lastName: 'Shopper',
  email: 'bench@example.com',
  phone: '5551234567',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
  country: 'US',
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
