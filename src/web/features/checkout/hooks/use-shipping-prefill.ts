import { useEffect } from 'react';
import { SHIPPING_FIELDS, type ShippingInfo } from '#common/schemas/checkout';
import { useAccountSettings } from '#web/lib/account-settings';
import { useCurrentUser } from '#web/lib/current-user';
import { useCheckoutStore } from '../stores/checkout-store';

/**
 * Fills the empty shipping fields of a signed-in customer from the details saved in their account
 * settings (on the server, so on every device), and the email from the account. What the shopper
 * typed is never replaced.
 */
export function useShippingPrefill(): void {
  const { user } = useCurrentUser();
  const settings = useAccountSettings();
  const userId = user?.id;
  const userEmail = user?.email;
  const saved = settings.data;

  useEffect(() => {
    if (!userId) return;
    const values: Partial<ShippingInfo> = {};
    if (saved) {
      for (const { key } of SHIPPING_FIELDS) {
        const value = key === 'email' ? '' : saved[key];
        if (value) values[key] = value;
      }
    }
    if (userEmail) values.email = userEmail;
    const { shippingInfo, setShippingInfo } = useCheckoutStore.getState();
    const next = { ...shippingInfo };
    let changed = false;
    for (const { key } of SHIPPING_FIELDS) {
      const value = values[key];
      if (value && next[key].trim() === '') {
        next[key] = value;
        changed = true;
      }
    }
    if (changed) setShippingInfo(next);
  }, [userId, userEmail, saved]);
}
