import { CHECKOUT_MESSAGES, CHECKOUT_SERVER_MESSAGES } from '#common/schemas/checkout';
import { ApiError } from '#web/lib/api-client';

/**
 * The message a failed card checkout shows (spec §8 "Payment"): the server's error text when it
 * sent one (the message of the field it names, without the field's name, for a refused input), 'Failed to create checkout session' when the server failed without saying why, and
 * 'Failed to process payment' for anything that went wrong in the browser.
 */
export function checkoutErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const fieldMessage = Object.values(error.fields)[0];
    if (fieldMessage) return fieldMessage;
    const generic = error.code === 'INTERNAL' || !error.hasServerMessage;
    return generic ? CHECKOUT_SERVER_MESSAGES.checkoutSessionFailed : error.message;
  }
  return CHECKOUT_MESSAGES.paymentFailed;
}
