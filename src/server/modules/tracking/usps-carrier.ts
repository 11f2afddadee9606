import { z } from 'zod';
import type { TrackingInfo } from '#common/schemas/tracking';

/**
 * USPS Tracking API v3 (developer.usps.com): OAuth 2 client credentials at
 * POST {base}/oauth2/v3/token, then GET {base}/tracking/v3/tracking/{number}?expand=DETAIL with the
 * bearer token. The token is kept until a minute before it expires.
 */

export interface CarrierCredentials {
  clientId: string;
  clientSecret: string;
}

/** What a carrier says about one parcel; null when it does not know the number. */
export interface CarrierProvider {
  track(trackingNumber: string, credentials: CarrierCredentials): Promise<TrackingInfo | null>;
}

export class CarrierError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CarrierError';
  }
}

const TokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive() });

const EventSchema = z.object({
  eventType: z.string().nullish(),
  eventTimestamp: z.string().nullish(),
  eventCity: z.string().nullish(),
  eventState: z.string().nullish(),
  eventCountry: z.string().nullish(),
});
const TrackingSchema = z.object({
  trackingNumber: z.string(),
  status: z.string().nullish(),
  statusCategory: z.string().nullish(),
  trackingEvents: z.array(EventSchema).nullish(),
});

const titleCase = (text: string) => text.toLowerCase().replace(/\b\p{L}/gu, (c) => c.toUpperCase());

/** The newest event's place, 'Chicago, IL' (USPS writes cities in capitals). */
function place(event: z.infer<typeof EventSchema> | undefined): string | null {
  if (!event) return null;
  const parts = [event.eventCity ? titleCase(event.eventCity) : '', event.eventState ?? ''].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : event.eventCountry || null;
}

function isoTime(text: string | null | undefined): string | null {
  if (!text) return null;
  const time = new Date(text);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

export function createUspsCarrier(deps: {
  baseUrl: string;
  timeoutMs: number;
  fetch: typeof fetch;
}): CarrierProvider {
  let token: { value: string; expiresAt: number; clientId: string } | undefined;

  async function call(url: string, init: RequestInit): Promise<Response> {
    try {
      return await deps.fetch(url, { ...init, signal: AbortSignal.timeout(deps.timeoutMs) });
    } catch (err) {
      throw new CarrierError(`USPS did not answer: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async function accessToken(credentials: CarrierCredentials): Promise<string> {
    if (token && token.clientId === credentials.clientId && token.expiresAt > Date.now()) return token.value;
    const res = await call(`${deps.baseUrl}/oauth2/v3/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      }),
    });
    if (!res.ok) throw new CarrierError(`USPS token request failed (${res.status})`, res.status);
    const parsed = TokenSchema.safeParse(await res.json().catch(() => null));
    if (!parsed.success) throw new CarrierError('USPS token answer was not understood');
    token = {
      value: parsed.data.access_token,
      expiresAt: Date.now() + Math.max(0, parsed.data.expires_in - 60) * 1000,
      clientId: credentials.clientId,
    };
    return token.value;
  }

  return {
    async track(trackingNumber, credentials) {
      const url = `${deps.baseUrl}/tracking/v3/tracking/${encodeURIComponent(trackingNumber)}?expand=DETAIL`;
      const get = async () =>
        call(url, {
          headers: { authorization: `Bearer ${await accessToken(credentials)}`, accept: 'application/json' },
        });
      let res = await get();
      if (res.status === 401) {
        // The token was revoked or the credentials changed: one fresh token, one more try.
        token = undefined;
        res = await get();
      }
      if (res.status === 404) return null;
      if (!res.ok) throw new CarrierError(`USPS tracking request failed (${res.status})`, res.status);
      const parsed = TrackingSchema.safeParse(await res.json().catch(() => null));
      if (!parsed.success) throw new CarrierError('USPS tracking answer was not understood');
      const events = parsed.data.trackingEvents ?? [];
      const latest = [...events].sort(
        (a, b) => (Date.parse(b.eventTimestamp ?? '') || 0) - (Date.parse(a.eventTimestamp ?? '') || 0),
      )[0];
      return {
        available: true,
        status: parsed.data.status ?? parsed.data.statusCategory ?? latest?.eventType ?? null,
        location: place(latest),
        timestamp: isoTime(latest?.eventTimestamp),
      };
    },
  };
}
