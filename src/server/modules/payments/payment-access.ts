import { signLink, verifyLink } from '#server/lib/signed-links';
import type { OrderLinks } from '../orders/guest-order.service';

/**
 * A checkout's access token: the checkout answer gives it to the browser that started the payment,
 * and with it the payment's status names the order and links to it. The reference alone is not
 * enough for that: once paid it is public (a transfer names it on the chain).
 */

const PURPOSE = 'checkout-status';
/** As long as the order mail's guest link. */
const ACCESS_TOKEN_DAYS = 180;

export function checkoutAccessToken(links: OrderLinks, reference: string, now = new Date()): string {
  return signLink(links.secret, PURPOSE, reference, new Date(now.getTime() + ACCESS_TOKEN_DAYS * 86_400_000));
}

export function isCheckoutAccessToken(
  links: OrderLinks,
  reference: string,
  token: string | undefined,
): boolean {
  return token !== undefined && token !== '' && verifyLink(links.secret, PURPOSE, reference, token);
}

/** The payment's own page (/success) with its access token: what a refund mail links to. */
export function checkoutStatusUrl(links: OrderLinks, reference: string): string {
  const params = new URLSearchParams({ reference, token: checkoutAccessToken(links, reference) });
  return `${links.publicUrl}/success?${params.toString()}`;
}
