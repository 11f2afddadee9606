import { address } from '@solana/kit';
import { formatCryptoAmount, SOL_DECIMALS } from '#common/crypto-amounts';
import { explorerTxUrl } from '#common/explorer';
import { shortOrderId } from '#common/format';
import { formatUsd } from '#common/money';
import {
  REFUND_MESSAGES,
  RefundInputSchema,
  type Refund,
  type RefundInput,
  type RefundSignRequest,
} from '#common/schemas/refund';
import { TOKEN_SYMBOL } from '#common/token';
import type { Config } from '#server/config';
import type { Database, Db, Tx } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import { signLink, verifyLink } from '#server/lib/signed-links';
import { announceAudit, recordAudit, type AdminActor } from '../audit/audit.service';
import type { ChainService } from '../chain/chain.service';
import type { EventHub } from '../events/event-hub';
import { orderRefundedMail } from '../mail/mail-templates';
import { queueMail } from '../mail/mail.service';
import { orderMailFacts, type OrderLinks } from '../orders/guest-order.service';
import type { StripeGateway } from '../payments/stripe-gateway';
import { createRefundCarrier } from './refund-carrier';
import { unsignedRefund } from './refund-sender';
import { createRefundsRepository, type RefundRow } from './refunds.repository';

/**
 * Refunds, card and crypto (docs/decisions/015). A refund is decided in one transaction
 * (an admin's, with the order row locked, or the shop's own inside a payment's confirmation through
 * `queueRefund`) and carried out by the refund worker (jobs/refund-worker.ts), leased so that N
 * instances never carry one out twice:
 * - card: Stripe's refunds API with idempotency key `refund-<id>`: a retry after any crash gets
 *   the same Stripe refund back;
 * - crypto: a transfer of the same coin back to the paying wallet, signed by the shop wallet's key,
 *   its signature and bytes recorded before it is sent; afterwards the chain says whether it landed
 *   (succeeded), can no longer land (signed anew) or may still land (the same bytes sent again).
 *   Without the key, the refund waits for an admin to sign it (a Solana Pay transaction request).
 */

export interface QueueRefundInput {
  paymentId: string;
  orderId: string | null;
  transferId: string | null;
  method: 'card' | 'sol' | 'aelo';
  kind: 'manual' | 'automatic';
  scope: 'order' | 'transfer';
  amountCents: number;
  cryptoAmount: bigint | null;
  cryptoMint: string | null;
  destination: string | null;
  reason: string;
  createdBy: string | null;
}

/** How a refund DTO names its coin and links its transaction. */
export interface RefundView {
  /** The explorer link of a refund transaction's signature (explorerTxUrl with the shop's cluster). */
  explorerUrl(signature: string): string | null;
  /** The AELO mint's decimals (SOL's are 9). */
  tokenDecimals: number;
  /** The admin's view: why a failed refund failed (never shown to shoppers: it may name internals). */
  showErrors?: boolean;
}

/** The AELO decimals assumed when no view is given (the local ledger's mint and the usual SPL mint). */
const DEFAULT_TOKEN_DECIMALS = 6;
const DEFAULT_VIEW: RefundView = { explorerUrl: () => null, tokenDecimals: DEFAULT_TOKEN_DECIMALS };

/** A refund row as every order view shows it. */
export function toRefundDto(row: RefundRow, view: RefundView): Refund {
  const decimals = row.method === 'sol' ? SOL_DECIMALS : view.tokenDecimals;
  const crypto = row.method === 'card' || row.crypto_amount === null ? null : String(row.crypto_amount);
  return {
    id: row.id,
    method: row.method,
    kind: row.kind,
    scope: row.scope,
    status: row.status,
    amountCents: row.amount_cents,
    cryptoAmount: crypto,
    cryptoSymbol: row.method === 'sol' ? 'SOL' : row.method === 'aelo' ? TOKEN_SYMBOL : null,
    cryptoAmountText: crypto === null ? null : formatCryptoAmount(crypto, decimals),
    destination: row.destination,
    reason: row.reason,
    stripeRefundId: row.stripe_refund_id,
    transactionSignature:
      row.status === 'succeeded' || row.status === 'sent' ? row.transaction_signature : null,
    explorerUrl:
      row.transaction_signature && row.status === 'succeeded'
        ? view.explorerUrl(row.transaction_signature)
        : null,
    createdAt: new Date(row.created_at).toISOString(),
    completedAt: row.completed_at ? new Date(row.completed_at).toISOString() : null,
    error: view.showErrors && row.status === 'failed' ? (row.error ?? null) : null,
  };
}

/**
 * Inside the caller's transaction: records a refund to be carried out (automatic ones: kind
 * 'automatic'). Idempotent per transferId (unique). Returns the refund id, or null if that
 * transfer already has one. Call `RefundsService.kick()` after the transaction commits.
 */
export async function queueRefund(trx: Tx, input: QueueRefundInput): Promise<string | null> {
  if (
    input.method === 'card' ? input.cryptoAmount !== null : !input.cryptoAmount || input.cryptoAmount <= 0n
  ) {
    throw new Error(
      `queueRefund: a ${input.method} refund ${input.method === 'card' ? 'has no' : 'needs a'} crypto amount`,
    );
  }
  return createRefundsRepository(trx).insert({
    ...input,
    reason: input.reason.trim().slice(0, 500) || 'Refund',
    cryptoMint: input.method === 'aelo' ? input.cryptoMint : null,
  });
}

/** Refund DTOs of these orders, oldest first (orders without refunds are absent from the map). */
export async function findRefundsOfOrders(
  db: Db,
  orderIds: readonly string[],
  view: RefundView,
): Promise<Map<string, Refund[]>> {
  const byOrder = new Map<string, Refund[]>();
  for (const row of await createRefundsRepository(db).findByOrders(orderIds)) {
    const list = byOrder.get(row.order_id!) ?? [];
    list.push(toRefundDto(row, view));
    byOrder.set(row.order_id!, list);
  }
  return byOrder;
}

/** Refund summaries of one payment (for the payment status the shopper's page polls), oldest first. */
export async function findRefundsOfPayment(
  db: Db,
  paymentId: string,
  view: RefundView = DEFAULT_VIEW,
): Promise<Refund[]> {
  return (await createRefundsRepository(db).findByPayment(paymentId)).map((row) => toRefundDto(row, view));
}

export interface RefundsService {
  /** An admin's refund of an order (full without amountCents, or partial), carried out by the worker. */
  refundOrder(orderId: string, input: RefundInput, admin: AdminActor): Promise<Refund>;
  /** The worker's pass: carries out every due refund (pending, sent to be checked, awaiting a signature). */
  processDue(): Promise<number>;
  /** Process soon (after a commit that queued a refund): wakes the worker. */
  kick(): void;
  /** The worker listens here for kicks; returns the unsubscribe function. */
  onKick(listener: () => void): () => void;
  /** The view (cluster explorer, token decimals) for refund DTOs. */
  view(): Promise<RefundView>;
  /** A crypto refund awaiting the shop wallet's signature, as a Solana Pay link for the admin's wallet. */
  signRequest(refundId: string): Promise<RefundSignRequest>;
  /** The Solana Pay transaction request's answer: the refund's transaction for `account` (the shop wallet) to sign. */
  signTransaction(
    refundId: string,
    token: string,
    account: string,
  ): Promise<{ transaction: string; message: string }>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SIGN_PURPOSE = 'refund-sign';
const SIGN_LINK_MS = 60 * 60_000;

export function createRefundsService(deps: {
  config: Config;
  database: Database;
  logger: Logger;
  events: EventHub;
  stripe: StripeGateway;
  chain: ChainService;
}): RefundsService {
  const { config, database, events, stripe, chain } = deps;
  const db = database.db;
  const repo = createRefundsRepository(db);
  const log = deps.logger.child({ module: 'refunds' });
  const links: OrderLinks = { publicUrl: config.publicUrl, secret: config.authSecret };
  const kickListeners = new Set<() => void>();
  const carrier = createRefundCarrier({
    db,
    stripe,
    chain,
    log,
    onChanged: (id) => announceById(id),
  });

  async function view(): Promise<RefundView> {
    const accounts = await chain.accounts().catch(() => null);
    return {
      explorerUrl: (signature) => explorerTxUrl(signature, chain.cluster),
      tokenDecimals: accounts?.decimals ?? DEFAULT_TOKEN_DECIMALS,
    };
  }

  /** Tells the admin's order view and the buyer's open pages that the order's refunds changed. */
  async function announce(row: RefundRow): Promise<void> {
    if (!row.order_id) return;
    const dto = toRefundDto(row, await view());
    const data = { orderId: row.order_id, refund: dto };
    await events.publish('admin:orders', { type: 'order.refunded', data });
    const order = await repo.findOrderFacts(row.order_id);
    if (order?.user_id) await events.publish(`orders:${order.user_id}`, { type: 'order.refunded', data });
  }

  async function announceById(id: string): Promise<void> {
    const row = await repo.findById(id);
    if (row)
      await announce(row).catch((err: unknown) => log.warn({ err, refund: id }, 'refund event not sent'));
  }

  // The admin's refund ----------------------------------------------------------------------------

  async function refundOrder(orderId: string, rawInput: RefundInput, admin: AdminActor): Promise<Refund> {
    const input = RefundInputSchema.parse(rawInput);
    if (!UUID.test(orderId)) throw new AppError('NOT_FOUND', 'Order not found');
    const { row, entry } = await db.transaction().execute(async (trx) => {
      const r = createRefundsRepository(trx);
      const order = await r.lockOrder(orderId.toLowerCase());
      if (!order) throw new AppError('NOT_FOUND', 'Order not found');
      const payment = order.payment_id ? await r.findPayment(order.payment_id) : undefined;
      if (!payment || (payment.method === 'card' && !payment.stripe_payment_intent_id)) {
        throw new AppError('CONFLICT', REFUND_MESSAGES.notPaid);
      }
      const refunded = await r.refundedOfOrder(order.id);
      const left = order.amount_cents - refunded.cents;
      if (left <= 0) throw new AppError('CONFLICT', REFUND_MESSAGES.nothingLeft);
      const amountCents = input.amountCents ?? left;
      if (amountCents > left) throw new AppError('CONFLICT', REFUND_MESSAGES.tooMuch);

      let cryptoAmount: bigint | null = null;
      let destination: string | null = null;
      if (payment.method !== 'card') {
        const paid = BigInt(payment.crypto_amount ?? '0');
        const cryptoLeft = paid - refunded.crypto;
        // At the payment's quote: the same share of the coins as of the cents, rounded down; the
        // last refund returns whatever is left, so rounding never strands a remainder.
        cryptoAmount =
          amountCents === left ? cryptoLeft : (BigInt(amountCents) * paid) / BigInt(order.amount_cents);
        if (cryptoAmount > cryptoLeft) cryptoAmount = cryptoLeft;
        if (cryptoAmount <= 0n) {
          throw new AppError('VALIDATION_FAILED', 'The amount is too small to refund in this coin', {
            amountCents: 'The amount is too small to refund in this coin',
          });
        }
        destination = await r.findPayer(
          payment.id,
          order.transaction_signature ?? payment.transaction_signature,
        );
      }
      const id = await r.insert({
        paymentId: payment.id,
        orderId: order.id,
        transferId: null,
        method: payment.method,
        kind: 'manual',
        scope: 'order',
        amountCents,
        cryptoAmount,
        cryptoMint: payment.method === 'aelo' ? payment.crypto_mint : null,
        destination,
        reason: input.reason,
        createdBy: admin.id,
      });
      if (!id) throw new Error('refund not inserted');
      const full = amountCents === left;
      if (full) await r.clearRefundRequired(order.id);
      const auditEntry = await recordAudit(
        trx,
        {
          action: 'refund_order',
          details: {
            orderId: order.id,
            shortId: shortOrderId(order.id),
            refundId: id,
            amountCents,
            method: payment.method,
            ...(cryptoAmount !== null ? { cryptoAmount: cryptoAmount.toString() } : {}),
            full,
            reason: input.reason,
          },
          actor: admin,
        },
        log,
      );
      const facts = await orderMailFacts(trx, links, order.id);
      if (facts) {
        await queueMail(
          trx,
          orderRefundedMail(facts, {
            refundId: id,
            amountText: formatUsd(amountCents),
            full: full && refunded.cents === 0,
            destination: payment.method === 'card' ? 'the card that paid' : 'the wallet that paid',
            reason: input.reason,
          }),
        );
      }
      return { row: (await r.findById(id))!, entry: auditEntry };
    });
    await announceAudit(events, entry).catch((err: unknown) => log.warn({ err }, 'audit event not sent'));
    await announce(row).catch((err: unknown) => log.warn({ err, refund: row.id }, 'refund event not sent'));
    kick();
    return toRefundDto(row, await view());
  }

  function kick(): void {
    for (const listener of kickListeners) listener();
  }

  // Admin-signed refunds (no shop wallet key on this cluster) ---------------------------------------

  async function awaitingRefund(refundId: string): Promise<RefundRow> {
    const row = UUID.test(refundId) ? await repo.findById(refundId.toLowerCase()) : undefined;
    if (!row) throw new AppError('NOT_FOUND', 'Refund not found');
    if (row.status !== 'awaiting_signature') {
      throw new AppError('CONFLICT', 'This refund does not need a signature');
    }
    return row;
  }

  return {
    refundOrder,
    processDue: () => carrier.processDue(),
    kick,
    onKick(listener) {
      kickListeners.add(listener);
      return () => kickListeners.delete(listener);
    },
    view,

    async signRequest(refundId) {
      const row = await awaitingRefund(refundId);
      const accounts = await chain.requireAccounts();
      const expiresAt = new Date(Date.now() + SIGN_LINK_MS);
      const token = signLink(config.authSecret, SIGN_PURPOSE, row.id, expiresAt);
      const link = `${config.publicUrl}/api/solana-pay/refunds/${row.id}?token=${token}`;
      return {
        url: `solana:${encodeURIComponent(link)}`,
        signer: accounts.shopWallet,
        expiresAt: expiresAt.toISOString(),
      };
    },

    async signTransaction(refundId, token, account) {
      if (
        !UUID.test(refundId) ||
        !verifyLink(config.authSecret, SIGN_PURPOSE, refundId.toLowerCase(), token)
      ) {
        throw new AppError('NOT_FOUND', 'Refund not found');
      }
      const row = await awaitingRefund(refundId);
      const accounts = await chain.requireAccounts();
      if (account !== accounts.shopWallet) {
        throw new AppError(
          'VALIDATION_FAILED',
          `Sign this refund with the shop wallet (${accounts.shopWallet})`,
          {
            account: 'Not the shop wallet',
          },
        );
      }
      if (!row.destination) throw new AppError('CONFLICT', 'The wallet that paid is not known yet');
      const transaction = await unsignedRefund(chain.rpc, row.id, {
        shopWallet: accounts.shopWallet,
        destination: address(row.destination),
        mint: row.method === 'aelo' ? address(row.crypto_mint ?? accounts.mint) : null,
        amount: BigInt(row.crypto_amount ?? '0'),
      });
      const dto = toRefundDto(row, await view());
      return {
        transaction,
        message: `Refund ${dto.cryptoAmountText ?? ''} ${dto.cryptoSymbol ?? ''} of order #${row.order_id ? shortOrderId(row.order_id) : ''}`,
      };
    },
  };
}
