import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { afterHydration } from '#web/lib/after-hydration';
import { CHECKOUT_STORAGE_KEY, CHECKOUT_STORAGE_VERSION } from './checkout-storage';
import type { CheckoutAmounts, PaymentMethod, ShippingField, ShippingInfo } from '#common/schemas/checkout';
import { DEFAULT_SHIPPING_COUNTRY } from '#common/us-states';

/**
 * The checkout's state machine (spec §4 "Checkout step"):
 *   cart -> info (needs a non-empty cart) -> payment (needs valid info) -> confirmation (after a
 *   successful payment). Back moves info->cart, payment->info. A failed payment keeps the
 *   checkout in payment with an error.
 * A paid checkout is closed: there is no Back from the confirmation (the spec's
 * confirmation->payment would offer to pay the same cart again), and the confirmation is kept
 * across reloads until Continue Shopping or a new cart.
 * The guards live in the components that know the cart and the form; this store only moves.
 *
 * Persisted (so a reload keeps them): the step, the typed shipping info, the payment that was
 * started (to recognise its outcome when the shopper comes back) and the confirmation shown.
 * Not persisted: passwords of the Create Account block, the busy flag, the payment error, the
 * cart step's notice and the live crypto quote.
 */

export const CHECKOUT_STEPS = [
  { key: 'cart', label: 'Cart' },
  { key: 'info', label: 'Info' },
  { key: 'payment', label: 'Payment' },
  { key: 'confirmation', label: 'Confirmation' },
] as const;
export type CheckoutStep = (typeof CHECKOUT_STEPS)[number]['key'];

const BACK: Record<CheckoutStep, CheckoutStep | null> = {
  cart: null,
  info: 'cart',
  payment: 'info',
  confirmation: null,
};

/** Every shipping field empty (typed as ShippingInfo, so no field can be missing). */
export const EMPTY_SHIPPING_INFO: ShippingInfo = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  address: '',
  city: '',
  state: '',
  zipCode: '',
  country: '',
};
const SHIPPING_KEYS = Object.keys(EMPTY_SHIPPING_INFO) as ShippingField[];
/** A new checkout's info: empty but for the one country the shop ships to. */
const NEW_SHIPPING_INFO: ShippingInfo = { ...EMPTY_SHIPPING_INFO, country: DEFAULT_SHIPPING_COUNTRY };

/** A payment started from this checkout; its amounts are the server's. */
export interface StartedPayment {
  reference: string;
  /** The checkout's access token: with it the status names the order and its links. */
  accessToken: string | null;
  totalCents: number;
  name: string;
  email: string;
  startedAt: string;
}

/** What the confirmation step shows. */
export interface OrderConfirmation {
  reference: string;
  totalCents: number;
  name: string;
  email: string;
  /** The order's number (first 8 characters of its id), once the server named it. */
  orderNumber: string | null;
  /** The guest order page (the signed link the order mail carries), as a path. */
  orderUrl: string | null;
  /** The account's order page, when the order belongs to an account. */
  accountOrderUrl: string | null;
  /**
   * Paid with test money, as the payment's status said (undefined when the step has no status:
   * after a reload or the card window's message; the confirmation step then asks the server).
   */
  demo?: boolean;
}

/** The crypto payment on screen: the server's amounts (an AELO one has its 10% discount). */
export interface CryptoQuote {
  paymentMethod: PaymentMethod;
  amounts: CheckoutAmounts;
}

export interface AccountDraft {
  password: string;
  confirmPassword: string;
}

interface CheckoutState {
  step: CheckoutStep;
  shippingInfo: ShippingInfo;
  account: AccountDraft;
  startedPayment: StartedPayment | null;
  confirmation: OrderConfirmation | null;
  isBusy: boolean;
  paymentError: string | null;
  /** Said on the cart step (e.g. this cart was already paid for). */
  notice: string | null;
  quote: CryptoQuote | null;

  goTo: (step: CheckoutStep) => void;
  back: () => void;
  setShippingField: (key: keyof ShippingInfo, value: string) => void;
  setShippingInfo: (info: ShippingInfo) => void;
  setAccountField: (key: keyof AccountDraft, value: string) => void;
  setBusy: (isBusy: boolean) => void;
  setPaymentError: (message: string | null) => void;
  /** Remembers the card payment just before the browser leaves for the provider's page. */
  startPayment: (payment: StartedPayment) => void;
  /** A payment succeeded: show the confirmation step. */
  confirm: (confirmation: OrderConfirmation) => void;
  /** The started payment ended without an order: stay in payment with the message. */
  failPayment: (message: string) => void;
  /** The cart's checkout was paid elsewhere: back to the (emptied) cart with the message. */
  closeCheckout: (notice: string) => void;
  setQuote: (quote: CryptoQuote | null) => void;
  /** Back to an empty start (the order is placed and the cart cleared). */
  finish: () => void;
}

const isText = (value: unknown): value is string => typeof value === 'string';
const asRecord = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;

function readShippingInfo(value: unknown): ShippingInfo {
  const raw = asRecord(value) ?? {};
  const info = { ...NEW_SHIPPING_INFO };
  for (const key of SHIPPING_KEYS) {
    const field = raw[key];
    // A country left blank by an earlier version of the form starts as the default too.
    if (isText(field) && !(key === 'country' && field === '')) info[key] = field.slice(0, 500);
  }
  return info;
}

const textOrNull = (value: unknown): string | null => (isText(value) && value !== '' ? value : null);
/** A same-site path only (never another origin's address from a tampered store). */
const pathOrNull = (value: unknown): string | null =>
  isText(value) && value.startsWith('/') && !value.startsWith('//') ? value : null;

function readSnapshot(value: unknown): OrderConfirmation | null {
  const raw = asRecord(value);
  if (!raw) return null;
  const { reference, totalCents, name, email } = raw;
  if (!isText(reference) || !isText(name) || !isText(email) || !Number.isInteger(totalCents)) return null;
  return {
    reference,
    totalCents: totalCents as number,
    name,
    email,
    orderNumber: textOrNull(raw.orderNumber),
    orderUrl: pathOrNull(raw.orderUrl),
    accountOrderUrl: pathOrNull(raw.accountOrderUrl),
  };
}

/** The persisted part, checked by hand (zod stays out of the entry chunk); anything odd is dropped. */
function readPersisted(value: unknown) {
  const raw = asRecord(value) ?? {};
  const step = CHECKOUT_STEPS.find((s) => s.key === raw.step)?.key ?? 'cart';
  const started = readSnapshot(raw.startedPayment);
  const startedRaw = asRecord(raw.startedPayment);
  const startedAt = startedRaw?.startedAt;
  return {
    step,
    shippingInfo: readShippingInfo(raw.shippingInfo),
    startedPayment:
      started && isText(startedAt)
        ? {
            reference: started.reference,
            accessToken: textOrNull(startedRaw?.accessToken),
            totalCents: started.totalCents,
            name: started.name,
            email: started.email,
            startedAt,
          }
        : null,
    confirmation: readSnapshot(raw.confirmation),
  };
}

export const useCheckoutStore = create<CheckoutState>()(
  persist(
    (set) => ({
      step: 'cart',
      shippingInfo: NEW_SHIPPING_INFO,
      account: { password: '', confirmPassword: '' },
      startedPayment: null,
      confirmation: null,
      isBusy: false,
      paymentError: null,
      notice: null,
      quote: null,

      goTo: (step) => set({ step, paymentError: null, notice: null }),
      back: () =>
        set((s) => {
          const previous = BACK[s.step];
          return previous ? { step: previous, paymentError: null, notice: null } : s;
        }),
      setShippingField: (key, value) => set((s) => ({ shippingInfo: { ...s.shippingInfo, [key]: value } })),
      setShippingInfo: (info) => set({ shippingInfo: info }),
      setAccountField: (key, value) => set((s) => ({ account: { ...s.account, [key]: value } })),
      setBusy: (isBusy) => set({ isBusy }),
      setPaymentError: (paymentError) => set({ paymentError }),
      startPayment: (startedPayment) => set({ startedPayment, paymentError: null }),
      confirm: (confirmation) =>
        set({
          step: 'confirmation',
          confirmation,
          startedPayment: null,
          paymentError: null,
          notice: null,
          quote: null,
          isBusy: false,
        }),
      failPayment: (message) =>
        set({ step: 'payment', startedPayment: null, paymentError: message, isBusy: false }),
      closeCheckout: (notice) =>
        set({
          step: 'cart',
          startedPayment: null,
          paymentError: null,
          notice,
          quote: null,
          isBusy: false,
        }),
      setQuote: (quote) => set({ quote }),
      finish: () =>
        set({
          step: 'cart',
          startedPayment: null,
          confirmation: null,
          paymentError: null,
          notice: null,
          quote: null,
          isBusy: false,
          account: { password: '', confirmPassword: '' },
        }),
    }),
    {
      name: CHECKOUT_STORAGE_KEY,
      version: CHECKOUT_STORAGE_VERSION,
      storage: createJSONStorage(() => localStorage),
      // Read after the server-rendered page has hydrated (lib/after-hydration.ts).
      skipHydration: true,
      partialize: (s) => ({
        step: s.step,
        shippingInfo: s.shippingInfo,
        startedPayment: s.startedPayment,
        confirmation: s.confirmation,
      }),
      migrate: (persisted) => readPersisted(persisted),
      merge: (persisted, current) => ({ ...current, ...readPersisted(persisted) }),
    },
  ),
);

afterHydration(() => void useCheckoutStore.persist.rehydrate());
