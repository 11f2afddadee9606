/**
 * The words of the local demo ledger's notices (src/server/config.ts, LOCAL_LEDGER): the banner on
 * every page while it runs, and the mark of an order paid with test money (on that ledger, or by card
 * in Stripe's test mode). One source for the pages, the admin, the order DTOs' readers and the mail.
 */
export const DEMO_LEDGER_TEXTS = {
  /** The banner's headline, on every storefront, account and admin page while the demo ledger runs. */
  headline: 'Demo ledger: payments are not real',
  /** The banner's one sentence under or beside the headline. */
  detail: 'Crypto paid here is test money on a local ledger; nothing is charged, nothing ships.',
  /** The badge of an order paid with test money (admin orders, the customer's orders). */
  orderBadge: 'Demo',
  /** The badge's accessible description (its title). */
  orderBadgeTitle: 'Paid with test money: nothing was charged and it does not ship',
  /** The checkout's confirmation of a demo order (/success, the drawer), instead of any shipping promise. */
  orderConfirmationLine: 'Demo order: paid with test money. Nothing was charged and nothing ships.',
  /** The line of a demo order's confirmation mail. */
  orderMailLine:
    'This is a demo order: it was paid with test money, so nothing was charged and nothing will ship.',
} as const;
