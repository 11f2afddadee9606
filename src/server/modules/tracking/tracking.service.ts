import { TRACKING_UNAVAILABLE, type TrackingInfo } from '#common/schemas/tracking';
import type { Logger } from '#server/lib/logger';
import type { SettingsService } from '../settings/settings.service';
import type { CarrierProvider } from './usps-carrier';

/** A carrier's answer is reused this long; a failure (or no answer) for this long. */
export const TRACKING_CACHE_MS = 10 * 60_000;
export const TRACKING_FAILURE_CACHE_MS = 60_000;
const CACHE_MAX_ENTRIES = 5000;

/**
 * Tracking status through the carrier (USPS): credentials from the admin settings or the
 * environment, read on each call; without them every answer is 'not available'. Answers are
 * cached per tracking number; a carrier failure is logged and answered as 'not available' (the
 * spec: tracking failures are only logged), never as an error.
 */
export function createTrackingService(deps: {
  settings: SettingsService;
  carrier: CarrierProvider;
  logger: Logger;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const log = deps.logger.child({ module: 'tracking' });
  const cache = new Map<string, { value: TrackingInfo; expiresAt: number }>();

  const remember = (key: string, value: TrackingInfo, ms: number) => {
    if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(key, { value, expiresAt: now() + ms });
    return value;
  };

  return {
    async track(trackingNumber: string): Promise<TrackingInfo> {
      const [clientId, clientSecret] = await Promise.all([
        deps.settings.getSecret('carrier', 'client_id'),
        deps.settings.getSecret('carrier', 'client_secret'),
      ]);
      if (!clientId || !clientSecret) return TRACKING_UNAVAILABLE;
      const key = `${clientId}|${trackingNumber}`;
      const hit = cache.get(key);
      if (hit && hit.expiresAt > now()) return hit.value;
      try {
        const info = await deps.carrier.track(trackingNumber, { clientId, clientSecret });
        return remember(
          key,
          info ?? TRACKING_UNAVAILABLE,
          info ? TRACKING_CACHE_MS : TRACKING_FAILURE_CACHE_MS,
        );
      } catch (err) {
        log.warn({ err, trackingNumber }, 'carrier tracking failed');
        return remember(key, TRACKING_UNAVAILABLE, TRACKING_FAILURE_CACHE_MS);
      }
    },
  };
}

export type TrackingService = ReturnType<typeof createTrackingService>;
