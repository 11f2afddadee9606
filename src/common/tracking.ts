/**
 * Parcel tracking links (spec: shipping by USPS; the customer's orders and the admin order card
 * both link a tracking number to the carrier's own tracking page).
 */

/** The carrier's name as shoppers and admins read it beside a tracking link. */
export const CARRIER_NAME = 'USPS';

/** USPS's public tracking page for one tracking number (spaces inside it are dropped). */
export function carrierTrackingUrl(trackingNumber: string): string {
  const number = trackingNumber.replace(/\s+/g, '');
  return `https://tools.usps.com/go/TrackConfirmAction?tLabels=${encodeURIComponent(number)}`;
}

/** What the admin is told when a tracking number matches none of the carrier's formats. */
export const INVALID_TRACKING_NUMBER =
  'Enter a valid USPS tracking number: 20 to 22 digits (e.g. 9400 1000 0000 0000 0000 00) or 13 characters like EC123456789US';

/** A tracking number as stored and compared: spaces (and dashes) dropped, letters upper-case. */
export function normalizeTrackingNumber(input: string): string {
  return input.replace(/[\s-]+/g, '').toUpperCase();
}

/**
 * USPS's formats: a domestic barcode of 20 to 22 digits (IMpb 92/93/94/95..., and the older
 * 20-digit labels), or an international S10 number (two letters, nine digits, US).
 */
const USPS_FORMATS = [/^\d{20,22}$/, /^[A-Z]{2}\d{9}US$/];

/** Whether a normalized number matches one of the carrier's formats. */
export function isCarrierTrackingNumber(normalized: string): boolean {
  return USPS_FORMATS.some((format) => format.test(normalized));
}
