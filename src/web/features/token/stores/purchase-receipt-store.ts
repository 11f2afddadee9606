import { create } from 'zustand';

/** A completed token purchase, as its receipt shows it. */
export interface PurchaseReceipt {
  reference: string;
  tokenAmount: string;
  tokenDecimals: number;
  buyer: string | null;
  signature: string | null;
}

interface PurchaseReceiptState {
  receipt: PurchaseReceipt | null;
  show: (receipt: PurchaseReceipt) => void;
  dismiss: () => void;
}

/**
 * The last completed purchase: the Buy Token modal closes 2 s after success (spec), and its
 * receipt, with the transaction link, stays on the page until the buyer closes it.
 */
export const usePurchaseReceiptStore = create<PurchaseReceiptState>()((set) => ({
  receipt: null,
  show: (receipt) => set({ receipt }),
  dismiss: () => set({ receipt: null }),
}));
