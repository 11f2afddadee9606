import { useEffect } from 'react';
import { SHIPPING_FIELDS, type ShippingInfo } from '#common/schemas/checkout';
import { useCurrentUser } from '#web/lib/current-user';
import { useCheckoutStore } from '../stores/checkout-store';

/** Where the account Settings page keeps the customer's details (spec: settings are kept locally). */
export const PROFILE_SETTINGS_STORAGE_KEY = 'profile-settings';

/** The saved details, whether stored flat or as a persisted store ({ state: {...} }). */
export function readProfileSettings(): Partial<ShippingInfo> {
  let raw: unknown;
  try {
    const text = localStorage.getItem(PROFILE_SETTINGS_STORAGE_KEY);
    raw = text ? JSON.parse(text) : null;
  } catch {
    return {};
  }
  if (typeof raw !== 'object' || raw === null) return {};
  const source =
    'state' in raw && typeof raw.state === 'object' && raw.state !== null
      ? (raw.state as Record<string, unknown>)
      : (raw as Record<string, unknown>);
  const out: Partial<ShippingInfo> = {};
  for (const { key } of SHIPPING_FIELDS) {
    const value = source[key];
    if (typeof value === 'string' && value.trim() !== '') out[key] = value.slice(0, 200);
  }
  return out;
}

/**
 * Fills the empty shipping fields of a signed-in customer from their saved details (the settings
 * kept in this browser), and the email from the account. What the shopper typed is never replaced.
 */
export function useShippingPrefill(): void {
  const { user } = useCurrentUser();
  const userId = user?.id;
  const userEmail = user?.email;

  useEffect(() => {
    if (!userId) return;
    const saved: Partial<ShippingInfo> = { ...readProfileSettings() };
    if (userEmail) saved.email = userEmail;
    const { shippingInfo, setShippingInfo } = useCheckoutStore.getState();
    const next = { ...shippingInfo };
    let changed = false;
    for (const { key } of SHIPPING_FIELDS) {
      const value = saved[key];
      if (value && next[key].trim() === '') {
        next[key] = value;
        changed = true;
      }
    }
    if (changed) setShippingInfo(next);
  }, [userId, userEmail]);
}
