import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Instruction,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { findAssociatedTokenPda, getTransferCheckedInstruction } from '@solana-program/token';
import { centsToBaseUnits, SOL_DECIMALS } from '#common/crypto-amounts';
import { shortOrderId } from '#common/format';
import type { TransactionRequestResponse } from '#common/schemas/chain';
import type { CheckoutResponse } from '#common/schemas/checkout';
import { encodeTransferRequestUrl } from '#common/solana-pay';
import { TOKEN_SYMBOL } from '#common/token';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import { isUniqueViolation } from '#server/db/errors';
import { AppError } from '#server/lib/app-error';
import { crashPoint } from '#server/lib/crash-point';
import type { Logger } from '#server/lib/logger';
import { accountAddress, type ChainService } from '../chain/chain.service';
import { transactionsNaming } from '../chain/reference-watch';
import { validateTransfer } from '../chain/transfer-validation';
import type { EventHub } from '../events/event-hub';
import type { MarketService } from '../market/market.service';
import type { RefundsService } from '../refunds/refunds.service';
import {
  settleTransfer,
  type CoinInfo,
  type SeenTransfer,
  type SettlementContext,
} from './crypto-settlement';
import { createPaymentTransfersRepository } from './payment-transfers.repository';
import { createPaymentsRepository, type CryptoQuoteColumns, type PaymentRow } from './payments.repository';
import { publishPaymentConfirmed } from './payment-announcements';

/**
 * Crypto payments (SOL, or AELO at 10% off): quoted on the server from the market's prices in
 * integer base units, offered as a Solana Pay transfer request (QR code, wallet link) and as a
 * transaction request a browser wallet signs, and confirmed only by the server: the payment
 * watcher finds the transfer by its reference, validates it (transfer-validation.ts) and turns it
 * into an order by the checkout's rules (payment-confirmation.ts). A signature pays one payment
 * (unique column); the payment's row lock makes N instances confirm it once.
 */

export const CRYPTO_MESSAGES = {
  solPrice: 'Failed to get SOL price',
  tokenPrice: 'Failed to get AELO price',
  notAwaiting: 'This payment is no longer awaiting payment',
  alreadyPaid: 'This order is already paid; nothing more is due',
} as const;

export type { CryptoQuoteColumns };

export type CryptoMethod = 'sol' | 'aelo';

export interface CryptoQuoter {
  decimals: number;
  priceFor(totalCents: number): CryptoQuoteColumns;
}

export interface CryptoPaymentsService {
  /** The market's USD price of one SOL or one AELO now (503 with the spec's message when unknown). */
  priceUsd(method: CryptoMethod): Promise<string>;
  /**
   * The method's price and accounts now, and what a total in cents costs at that price (the quote
   * is fixed for the payment's life). Read before the checkout's transaction: no network inside it.
   */
  quote(method: CryptoMethod): Promise<CryptoQuoter>;
  /** The checkout answer's crypto block: the payment's quote as Solana Pay requests. */
  paymentRequest(reference: string, quote: CryptoQuoteColumns, decimals: number): CheckoutResponse['crypto'];
  /** A Solana Pay transaction request: the payment's transfer, for `account` to sign. */
  transactionFor(reference: string, account: string): Promise<TransactionRequestResponse>;
  /**
   * Looks on the chain for this payment's transfer and confirms it; true when it is (now)
   * confirmed. `known`: the payment's row when the caller has just read it (one query fewer).
   */
  check(reference: string, known?: PaymentRow): Promise<boolean>;
  /** Decimals and symbols of SOL and the shop's token. */
  coins(): Promise<CoinInfo>;
  /** One watcher pass: leased payments checked; returns how many orders it placed. */
  watch(now?: Date): Promise<number>;
  /** Checks at once the watched payments among these account keys (a transaction just landed). */
  checkAddresses(keys: readonly string[]): Promise<void>;
}

export function createCryptoPaymentsService(deps: {
  config: Config;
  database: Database;
  logger: Logger;
  events: EventHub;
  chain: ChainService;
  market: MarketService;
  /** Wakes the refund worker once a settlement that queued a refund committed. */
  refunds: Pick<RefundsService, 'kick'>;
}): CryptoPaymentsService {
  const { config, database, chain, market, events } = deps;
  const { db } = database;
  const log = deps.logger.child({ module: 'crypto-payments' });

  async function priceOf(method: CryptoMethod): Promise<string> {
    try {
      if (method === 'sol') return String((await market.solPrice()).solana.usd);
      const price = (await market.tokenStats()).pairs[0]?.priceUsd;
      if (!price) throw new Error('no price');
      return price;
    } catch {
      throw new AppError(
        'UNAVAILABLE',
        method === 'sol' ? CRYPTO_MESSAGES.solPrice : CRYPTO_MESSAGES.tokenPrice,
      );
    }
  }

  /**
   * What the payment's transfer must do: its quote, and for AELO the recipient's token account (the
   * shop's, known with its token program; anyone else's associated account otherwise).
   */
  async function expectedOf(payment: PaymentRow) {
    const accounts = await chain.requireAccounts();
    const recipient = payment.recipient ?? accounts.shopWallet;
    const mint = payment.crypto_mint;
    let token: { mint: string; recipientTokenAccount: string; tokenProgram: Address } | undefined;
    if (mint) {
      // Every instruction and token account of a mint goes through the mint's own program (Token
      // or Token-2022): the shop mint's is known; another mint's is its account's owner.
      const tokenProgram =
        mint === accounts.mint
          ? accounts.tokenProgram
          : (
              await chain.rpc
                .getAccountInfo(address(mint), { commitment: 'confirmed', encoding: 'base64' })
                .send()
            ).value?.owner;
      if (!tokenProgram) throw new AppError('UNAVAILABLE', 'The payment token cannot be read right now');
      const isShops = mint === accounts.mint && recipient === accounts.shopWallet;
      const [recipientTokenAccount] = isShops
        ? [accounts.shopTokenAccount]
        : await findAssociatedTokenPda({ owner: address(recipient), mint: address(mint), tokenProgram });
      token = { mint, recipientTokenAccount, tokenProgram };
    }
    return { recipient, amount: BigInt(payment.crypto_amount ?? '0'), reference: payment.reference, token };
  }

  const links = { publicUrl: config.publicUrl, secret: config.authSecret };

  /** Decimals and symbols of SOL and the shop's token (for the texts of amounts). */
  async function coins(): Promise<CoinInfo> {
    const accounts = await chain.accounts().catch(() => null);
    return {
      sol: { decimals: SOL_DECIMALS, symbol: 'SOL' },
      aelo: { decimals: accounts?.decimals ?? 6, symbol: TOKEN_SYMBOL },
    };
  }

  /**
   * Records one valid transfer against its payment and does what it calls for (crypto-settlement.ts),
   * in one transaction holding the payment's row lock; then tells the shop about a new order.
   */
  /** True when this transfer placed the payment's order (now). */
  async function settle(reference: string, transfer: SeenTransfer, ctx: SettlementContext): Promise<boolean> {
    let outcome;
    try {
      outcome = await db.transaction().execute(async (trx) => {
        const payment = await createPaymentsRepository(trx).lockByReference(reference);
        if (!payment) return null;
        return { payment, settlement: await settleTransfer(trx, payment, transfer, ctx) };
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        log.warn(
          { reference, signature: transfer.signature },
          'signature already pays another payment: refused',
        );
        return false;
      }
      throw err;
    }
    if (!outcome) return false;
    const { payment, settlement } = outcome;
    if (settlement.kind === 'refunded' || settlement.kind === 'confirmed') deps.refunds.kick();
    if (settlement.kind === 'refunded') {
      log.info(
        { reference, signature: transfer.signature },
        'transfer to an ended or paid checkout: refund queued',
      );
    }
    if (settlement.kind !== 'confirmed') return false;
    crashPoint('payments:after-confirm');
    if (settlement.result.failed) {
      log.warn(
        { orderId: settlement.result.order.id, reference },
        'crypto payment could not be placed: refund queued',
      );
    }
    await publishPaymentConfirmed(events, payment, settlement.result);
    return true;
  }

  /**
   * Reads the reference's transfers and settles each new one. `confirmed`: the payment is paid (now
   * or before); `placedNow`: this pass placed its order (what the watcher counts).
   */
  async function inspect(
    reference: string,
    known?: PaymentRow,
  ): Promise<{ confirmed: boolean; placedNow: boolean }> {
    const repo = createPaymentsRepository(db);
    const payment = known ?? (await repo.findByReference(reference));
    if (!payment || (payment.method !== 'sol' && payment.method !== 'aelo')) {
      return { confirmed: false, placedNow: false };
    }
    // Any amount counts (parts add up); what each transfer pays is settled with the payment locked.
    const expected = { ...(await expectedOf(payment)), amount: 1n };
    const ctx: SettlementContext = {
      links,
      now: new Date(),
      coins: await coins(),
      demoLedger: config.solana.localLedger,
    };
    let settled = false;
    let placedNow = false;
    for await (const seen of transactionsNaming(chain.rpc, reference, {
      isKnown: (signature) => createPaymentTransfersRepository(db).isKnownSignature(signature),
    })) {
      const verdict = validateTransfer(seen.transaction, expected);
      if (!verdict.ok) {
        log.info({ reference, signature: seen.signature, reason: verdict.reason }, 'transfer refused');
        continue;
      }
      crashPoint('crypto:transfer-seen');
      const placed = await settle(
        reference,
        {
          signature: seen.signature,
          payer: verdict.payer,
          amount: verdict.received,
          blockTime: seen.blockTime,
        },
        ctx,
      );
      settled = true;
      placedNow ||= placed;
    }
    if (!settled) return { confirmed: payment.status === 'confirmed', placedNow };
    return { confirmed: (await repo.findByReference(reference))?.status === 'confirmed', placedNow };
  }

  async function check(reference: string, known?: PaymentRow): Promise<boolean> {
    return (await inspect(reference, known)).confirmed;
  }

  return {
    priceUsd: priceOf,

    async quote(method) {
      const accounts = await chain.requireAccounts();
      const priceUsd = await priceOf(method);
      const decimals = method === 'sol' ? SOL_DECIMALS : accounts.decimals;
      return {
        decimals,
        priceFor: (totalCents) => ({
          amount: centsToBaseUnits(totalCents, priceUsd, decimals, 'up'),
          mint: method === 'aelo' ? accounts.mint : null,
          recipient: accounts.shopWallet,
          priceUsd,
        }),
      };
    },

    paymentRequest(reference, quote, decimals) {
      return {
        recipient: quote.recipient,
        amount: quote.amount.toString(),
        decimals,
        mint: quote.mint,
        paymentUrl: encodeTransferRequestUrl({
          recipient: quote.recipient,
          amount: quote.amount,
          decimals,
          splToken: quote.mint,
          reference,
          label: config.shopName,
          message: `${config.shopName} order ${shortOrderId(reference)}`,
        }),
        transactionUrl: `${config.publicUrl}/api/solana-pay/payments/${reference}`,
      };
    },

    async transactionFor(reference, account) {
      const payment = await createPaymentsRepository(db).findByReference(reference);
      if (!payment || (payment.method !== 'sol' && payment.method !== 'aelo')) {
        throw new AppError('PAYMENT_NOT_FOUND', 'Payment not found');
      }
      if (payment.status === 'confirmed') throw new AppError('CONFLICT', CRYPTO_MESSAGES.alreadyPaid);
      if (payment.status !== 'pending' || payment.expires_at.getTime() <= Date.now()) {
        throw new AppError('CONFLICT', CRYPTO_MESSAGES.notAwaiting);
      }
      const payer = createNoopSigner(accountAddress(account));
      const expected = await expectedOf(payment);
      const referenceMeta = { address: address(reference), role: AccountRole.READONLY };
      let transfer: Instruction;
      if (expected.token) {
        const accounts = await chain.requireAccounts();
        const { tokenProgram } = expected.token;
        const [source] = await findAssociatedTokenPda({
          owner: payer.address,
          mint: address(expected.token.mint),
          tokenProgram,
        });
        const ix = getTransferCheckedInstruction(
          {
            source,
            mint: address(expected.token.mint),
            destination: address(expected.token.recipientTokenAccount),
            authority: payer,
            amount: expected.amount,
            decimals: accounts.decimals,
          },
          { programAddress: tokenProgram },
        );
        transfer = { ...ix, accounts: [...ix.accounts, referenceMeta] };
      } else {
        const ix = getTransferSolInstruction({
          source: payer,
          destination: address(expected.recipient),
          amount: expected.amount,
        });
        transfer = { ...ix, accounts: [...ix.accounts, referenceMeta] };
      }
      const { value: blockhash } = await chain.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
      const message = pipe(
        createTransactionMessage({ version: 'legacy' }),
        (m) => setTransactionMessageFeePayer(payer.address, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
        (m) => appendTransactionMessageInstructions([transfer], m),
      );
      return {
        transaction: getBase64EncodedWireTransaction(compileTransaction(message)),
        message: `${config.shopName} order ${shortOrderId(reference)}`,
      };
    },

    check,

    coins,

    async watch(now = new Date()) {
      const references = await createPaymentsRepository(db).leaseCryptoForWatch(
        now,
        new Date(now.getTime() - config.solana.lateWatchMs),
        {
          pendingUntil: new Date(now.getTime() + config.solana.watchIntervalMs),
          lateUntil: new Date(now.getTime() + 30_000),
        },
        50,
      );
      let confirmed = 0;
      for (const reference of references) {
        try {
          if ((await inspect(reference)).placedNow) confirmed++;
        } catch (err) {
          // 'not found' right after a send can be an RPC not indexed yet: the next pass looks again.
          log.warn({ err, reference }, 'payment check failed');
        }
      }
      return confirmed;
    },

    async checkAddresses(keys) {
      const references = await createPaymentsRepository(db).findWatchedReferences(
        keys,
        new Date(Date.now() - config.solana.lateWatchMs),
      );
      for (const reference of references) {
        try {
          await check(reference);
        } catch (err) {
          log.warn({ err, reference }, 'payment check failed');
        }
      }
    },
  };
}
