import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the USPS APIs v3 (developer.usps.com), speaking their wire format:
 * - POST /oauth2/v3/token {grant_type: 'client_credentials', client_id, client_secret}
 *     -> { access_token, token_type: 'Bearer', expires_in, ... } (401 {error: 'invalid_client'} otherwise)
 * - GET /tracking/v3/tracking/{trackingNumber}?expand=DETAIL with 'Authorization: Bearer <token>'
 *     -> { trackingNumber, statusCategory, status, statusSummary, trackingEvents: [...] }
 *     -> 404 { apiVersion, error: { code, message, errors: [...] } } for an unknown number
 * Tests register parcels, steer failures through `behaviour` and read `hits`.
 */
export interface UspsEvent {
  eventType: string;
  eventTimestamp: string;
  eventCity: string;
  eventState: string;
  eventZIP?: string;
}

export interface FakeUsps {
  url: string;
  credentials: { clientId: string; clientSecret: string };
  parcels: Map<string, { status: string; statusCategory: string; events: UspsEvent[] }>;
  behaviour: { mode: 'ok' | 'http-500' | 'garbage' };
  hits: { token: number; tracking: number };
  close(): Promise<void>;
}

export async function startFakeUsps(): Promise<FakeUsps> {
  const credentials = { clientId: 'usps-consumer-key-1234', clientSecret: 'usps-consumer-secret-5678' };
  const tokens = new Set<string>();
  const fake: Omit<FakeUsps, 'url' | 'close'> = {
    credentials,
    parcels: new Map(),
    behaviour: { mode: 'ok' },
    hits: { token: 0, tracking: 0 },
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      if (req.method === 'POST' && url.pathname === '/oauth2/v3/token') {
        fake.hits.token++;
        const body = JSON.parse(raw || '{}') as Record<string, string>;
        if (
          body.grant_type !== 'client_credentials' ||
          body.client_id !== credentials.clientId ||
          body.client_secret !== credentials.clientSecret
        ) {
          send(401, { error: 'invalid_client', error_description: 'Client authentication failed' });
          return;
        }
        const token = `tok_${Math.random().toString(36).slice(2)}`;
        tokens.add(token);
        send(200, {
          access_token: token,
          token_type: 'Bearer',
          issued_at: Date.now(),
          expires_in: 28799,
          status: 'approved',
          scope: 'tracking',
        });
        return;
      }
      const match = /^\/tracking\/v3\/tracking\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && match) {
        fake.hits.tracking++;
        const auth = req.headers.authorization ?? '';
        if (!auth.startsWith('Bearer ') || !tokens.has(auth.slice(7))) {
          send(401, { apiVersion: '3.0.0', error: { code: '401', message: 'Unauthorized', errors: [] } });
          return;
        }
        if (fake.behaviour.mode === 'http-500') {
          send(500, {
            apiVersion: '3.0.0',
            error: { code: '500', message: 'Internal Server Error', errors: [] },
          });
          return;
        }
        if (fake.behaviour.mode === 'garbage') {
          send(200, '<html>maintenance</html>');
          return;
        }
        const number = decodeURIComponent(match[1]!);
        const parcel = fake.parcels.get(number);
        if (!parcel) {
          send(404, {
            apiVersion: '3.0.0',
            error: {
              code: '404',
              message: 'Tracking number not found',
              errors: [{ status: '404', code: '1001', title: 'Not found', detail: `No record of ${number}` }],
            },
          });
          return;
        }
        send(200, {
          trackingNumber: number,
          statusCategory: parcel.statusCategory,
          status: parcel.status,
          statusSummary: `Your item is ${parcel.statusCategory.toLowerCase()}.`,
          trackingEvents: parcel.events.map((e) => ({ eventCountry: '', eventZIP: '', ...e })),
        });
        return;
      }
      send(404, { apiVersion: '3.0.0', error: { code: '404', message: 'Not Found', errors: [] } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...fake,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
