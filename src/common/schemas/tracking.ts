import { z } from 'zod';

/**
 * Parcel tracking status (spec §7 tracking-info, §8 Tracking: failures only logged): asked for
 * each of a customer's orders that has a tracking number.
 */

/** POST /api/tracking-info: a carrier tracking number (spaces are dropped). */
export const TrackingInfoRequestSchema = z.object({
  trackingNumber: z
    .string()
    .transform((v) => v.replace(/\s+/g, '').toUpperCase())
    .pipe(
      z
        .string()
        .min(8, 'Please enter a valid tracking number')
        .max(40, 'Please enter a valid tracking number')
        .regex(/^[A-Z0-9]+$/, 'Please enter a valid tracking number'),
    ),
});

export const TrackingInfoSchema = z.object({
  /** false: no carrier is configured, or it did not answer; nothing else is known. */
  available: z.boolean(),
  status: z.string().nullable(),
  location: z.string().nullable(),
  /** When the latest scan happened (ISO 8601). */
  timestamp: z.string().nullable(),
});
export type TrackingInfo = z.infer<typeof TrackingInfoSchema>;

export const TRACKING_UNAVAILABLE: TrackingInfo = {
  available: false,
  status: null,
  location: null,
  timestamp: null,
};
