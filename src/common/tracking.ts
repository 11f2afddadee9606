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
