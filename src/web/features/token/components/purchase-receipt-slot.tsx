import { Suspense } from 'react';
import { lazyWithPreload } from '#web/lib/lazy-with-preload';
import { usePurchaseReceiptStore } from '../stores/purchase-receipt-store';

// The card's code comes with the Buy Token modal (a receipt exists only after a purchase there).
const PurchaseReceiptCard = lazyWithPreload(() =>
  import('./purchase-receipt').then((m) => m.PurchaseReceiptCard),
);

/** The storefront's place for a token purchase's receipt: nothing until a purchase completes. */
export function PurchaseReceiptSlot() {
  const hasReceipt = usePurchaseReceiptStore((s) => s.receipt !== null);
  if (!hasReceipt) return null;
  return (
    <Suspense fallback={null}>
      <PurchaseReceiptCard />
    </Suspense>
  );
}
