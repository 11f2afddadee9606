import { address, type Blockhash } from '@solana/kit';
import { centsToBaseUnits, SOL_DECIMALS } from '#common/crypto-amounts';
import { shortOrderId } from '#common/format';
import { parseDollarsToCents } from '#common/money';
import type { TransactionRequestResponse } from '#common/schemas/chain';
import {
  TOKEN_PURCHASE_LIFETIME_MS,
  type AdminTokenPurchasesQuery,
  type AdminTokenPurchasesResponse,
  type TokenPurchaseInput,
  type TokenPurchaseResponse,
} from '#common/schemas/token-sale';
import { encodeTransactionRequestUrl } from '#common/solana-pay';
import { TOKEN_SYMBOL } from '#common/token';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import { isUniqueViolation } from '#server/db/errors';
import { AppError } from '#server/lib/app-error';
import type { ClientKeys } from '#server/lib/client-ip';
import { consumeClientLimit } from '#server/lib/client-limits';
import { crashPoint } from '#server/lib/crash-point';
import type { Logger } from '#server/lib/logger';
import { toPage } from '#server/lib/pagination';
import type { RateLimiter } from '#server/db/rate-limiter';
import { accountAddress, type ChainAccounts, type ChainService } from '../chain/chain.service';
import { transactionsNaming } from '../chain/reference-watch';
import { validateTransfer } from '../chain/transfer-validation';
import type { CryptoPaymentsService } from '../payments/crypto-payments.service';
import { newPaymentReference } from '../payments/payment-reference';
import { buildPurchaseTransaction, tokenAccountOf } from './purchase-transaction';
import { createTokenSalesRepository, type TokenPurchaseRow } from './token-sales.repository';

/**
 * Buy Token: the shop sells AELO from its treasury for SOL at the market's prices. A purchase is
 * quoted on the server (lamports rounded up, tokens rounded down) and lives 5 minutes. Its payment
 * is one Solana Pay transaction request the treasury partially signs: the buyer's SOL and the
 * treasury's AELO move in one transaction, so tokens arrive exactly when they are paid for.
 *
 * Exactly once: at most one treasury-signed transaction of a purchase can land at any time. The
 * same bytes are handed out until their blockhash has expired (finalized), and a new one only after
 * that and only when nothing landed; the watcher records the landed one (unique signature). A
 * restart, a second instance or a confirmation seen twice changes nothing on the chain.
 */

export const TOKEN_SALE_MESSAGES = {
  notConfigured: 'Buy Token is not available on this shop yet',
  notFound: 'Token purchase not found',
  notAwaiting: 'This purchase is no longer awaiting payment',
  otherWallet:
    'This purchase is already being paid from another wallet. Start a new purchase to pay from this one.',
  soldOut: `Not enough ${TOKEN_SYMBOL} is left for sale right now. Please try a smaller amount.`,
  priceTooHigh: `The ${TOKEN_SYMBOL} price is too high for this amount. Please try a larger amount.`,
  rateLimited: 'Too many token purchases from this address. Please wait a few minutes and try again.',
} as const;

export interface TokenSalesService {
  create(
    input: TokenPurchaseInput,
    holder: { userId: string | null; client: ClientKeys | null },
  ): Promise<TokenPurchaseResponse>;
  get(reference: string): Promise<TokenPurchaseResponse>;
  /** The Solana Pay transaction request's answer: the purchase's transaction for `account` to sign. */
  transactionFor(reference: string, account: string): Promise<TransactionRequestResponse>;
  /** Looks on the chain for the purchase's transaction and records it; true when completed. */
  check(reference: string): Promise<boolean>;
  /** One watcher pass: leased purchases checked or expired; returns how many completed. */
  watch(now?: Date): Promise<number>;
  /** Checks at once the purchases among these account keys (a transaction just landed). */
  checkAddresses(keys: readonly string[]): Promise<void>;
  listForAdmin(query: AdminTokenPurchasesQuery): Promise<AdminTokenPurchasesResponse>;
}

export function createTokenSalesService(deps: {
  config: Config;
  database: Database;
  logger: Logger;
  chain: ChainService;
  cryptoPayments: CryptoPaymentsService;
  rateLimiter: RateLimiter;
}): TokenSalesService {
  const { config, chain, cryptoPayments, rateLimiter } = deps;
  const repo = createTokenSalesRepository(deps.database.db);
  const log = deps.logger.child({ module: 'token-sales' });

  async function sellingAccounts(): Promise<
    ChainAccounts & { treasury: NonNullable<ChainAccounts['treasury']> }
  > {
    const accounts = await chain.requireAccounts();
    const { treasury } = accounts;
    if (!treasury) throw new AppError('NOT_CONFIGURED', TOKEN_SALE_MESSAGES.notConfigured);
    return { ...accounts, treasury };
  }

  function view(row: TokenPurchaseRow, decimals: number, now = new Date()): TokenPurchaseResponse {
    const transactionUrl = `${config.publicUrl}/api/solana-pay/token-purchases/${row.reference}`;
    // A purchase past its life with nothing landed reads as expired, though the watcher still
    // looks until the transaction handed out can no longer land.
    const status =
      row.status === 'pending' && row.expires_at.getTime() <= now.getTime() ? 'expired' : row.status;
    return {
      reference: row.reference,
      status,
      usdCents: row.usd_cents,
      lamports: String(row.lamports),
      tokenAmount: String(row.token_amount),
      tokenDecimals: decimals,
      solPriceUsd: row.sol_price_usd,
      tokenPriceUsd: row.token_price_usd,
      paymentUrl: encodeTransactionRequestUrl(transactionUrl),
      transactionUrl,
      expiresAt: row.expires_at.toISOString(),
      signature: row.transaction_signature,
      buyer: row.status === 'completed' ? row.buyer : null,
    };
  }

  async function find(reference: string): Promise<TokenPurchaseRow> {
    const row = await repo.findByReference(reference);
    if (!row) throw new AppError('PAYMENT_NOT_FOUND', TOKEN_SALE_MESSAGES.notFound);
    return row;
  }

  /**
   * The treasury's tokens now. Nothing is reserved for live purchases: the purchase transaction is
   * atomic (a treasury short of tokens fails it whole, the buyer's SOL unmoved), and reserving
   * would let anyone block sales by starting large purchases they never pay.
   */
  async function treasuryBalance(
    accounts: ChainAccounts & { treasury: { address: string } },
  ): Promise<bigint> {
    const treasuryAccount = await tokenAccountOf(
      accounts.treasury.address,
      accounts.mint,
      accounts.tokenProgram,
    );
    const { value } = await chain.rpc
      .getTokenAccountBalance(treasuryAccount, { commitment: 'confirmed' })
      .send();
    return BigInt(value.amount);
  }

  /** Expired blockhash, at finalized: a transaction written with it can no longer land anywhere. */
  async function canStillLand(row: TokenPurchaseRow): Promise<boolean> {
    if (!row.blockhash) return false;
    const { value } = await chain.rpc
      .isBlockhashValid(row.blockhash as Blockhash, { commitment: 'finalized' })
      .send();
    return value;
  }

  async function check(reference: string): Promise<boolean> {
    const row = await repo.findByReference(reference);
    if (!row) return false;
    if (row.status === 'completed') return true;
    if (!row.transaction_base64) return false;
    const accounts = await chain.requireAccounts();
    // Every transaction naming the reference, oldest first (however many name it after the
    // purchase's): the one the treasury signed is the purchase; anything else is not.
    for await (const { signature, blockTime: seconds, transaction: tx } of transactionsNaming(
      chain.rpc,
      reference,
    )) {
      // The buyer is the fee payer of the transaction the treasury signed.
      const buyer = tx.transaction.message.accountKeys[0];
      if (!buyer) continue;
      const paid = validateTransfer(tx, {
        recipient: accounts.shopWallet,
        amount: BigInt(row.lamports),
        reference,
      });
      const delivered = validateTransfer(tx, {
        recipient: buyer,
        amount: BigInt(row.token_amount),
        reference,
        token: {
          mint: accounts.mint,
          recipientTokenAccount: await tokenAccountOf(buyer, accounts.mint, accounts.tokenProgram),
        },
      });
      if (!paid.ok || !delivered.ok) {
        log.info({ reference, signature }, 'transaction is not the purchase: ignored');
        continue;
      }
      const blockTime = seconds === null ? new Date() : new Date(Number(seconds) * 1000);
      crashPoint('token-sales:transfer-seen');
      try {
        if (await repo.complete(row.id, signature, buyer, blockTime)) {
          crashPoint('token-sales:after-complete');
          log.info({ reference, signature, buyer }, 'token purchase completed');
        }
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        log.warn({ reference, signature }, 'signature already completes another purchase');
        continue;
      }
      return true;
    }
    return false;
  }

  /** A leased purchase: completed if its transaction landed; expired once nothing more can land. */
  async function settle(reference: string, now: Date): Promise<boolean> {
    const row = await repo.findByReference(reference);
    if (!row || row.status !== 'pending') return row?.status === 'completed';
    if (row.expires_at.getTime() > now.getTime()) return check(reference);
    // Past its life: first whether the transaction handed out may still land, then whether it did.
    const open = await canStillLand(row);
    if (await check(reference)) return true;
    const givenUp = now.getTime() - row.expires_at.getTime() > config.solana.lateWatchMs;
    if (!open || givenUp) {
      await repo.update(row.id, { status: 'expired', watch_lease_until: null });
      if (open) log.warn({ reference }, 'token purchase given up while its transaction could still land');
    }
    return false;
  }

  return {
    async create(input, holder) {
      // Per client (an IPv6 /64), and per IPv6 /56 at IPV6_NETWORK_LIMIT_MULTIPLIER times that.
      if (holder.client) {
        await consumeClientLimit(
          rateLimiter,
          'token-purchase',
          holder.client,
          config.tokenPurchaseRateLimit,
          config.networkLimitMultiplier,
          TOKEN_SALE_MESSAGES.rateLimited,
        );
      }
      const accounts = await sellingAccounts();
      const usdCents = parseDollarsToCents(input.amountUsd);
      if (usdCents === null) throw new AppError('VALIDATION_FAILED', 'Invalid amount');
      const [solPriceUsd, tokenPriceUsd] = await Promise.all([
        cryptoPayments.priceUsd('sol'),
        cryptoPayments.priceUsd('aelo'),
      ]);
      const lamports = centsToBaseUnits(usdCents, solPriceUsd, SOL_DECIMALS, 'up');
      const tokenAmount = centsToBaseUnits(usdCents, tokenPriceUsd, accounts.decimals, 'down');
      if (tokenAmount <= 0n) throw new AppError('CONFLICT', TOKEN_SALE_MESSAGES.priceTooHigh);
      const now = new Date();
      if ((await treasuryBalance(accounts)) < tokenAmount) {
        throw new AppError('UNAVAILABLE', TOKEN_SALE_MESSAGES.soldOut);
      }
      const row = await repo.insert({
        reference: newPaymentReference(),
        usdCents,
        lamports,
        tokenAmount,
        solPriceUsd,
        tokenPriceUsd,
        clientIp: holder.client?.ip ?? null,
        userId: holder.userId,
        expiresAt: new Date(now.getTime() + TOKEN_PURCHASE_LIFETIME_MS),
      });
      crashPoint('token-sales:after-create');
      log.info({ reference: row.reference, usdCents }, 'token purchase started');
      return view(row, accounts.decimals, now);
    },

    async get(reference) {
      const row = await find(reference);
      const accounts = await chain.requireAccounts();
      return view(row, accounts.decimals);
    },

    async transactionFor(reference, account) {
      const buyer = accountAddress(account);
      const accounts = await sellingAccounts();
      for (let attempt = 0; attempt < 2; attempt++) {
        const row = await find(reference);
        if (row.status !== 'pending') throw new AppError('CONFLICT', TOKEN_SALE_MESSAGES.notAwaiting);
        const message = `Buy ${TOKEN_SYMBOL} · order ${shortOrderId(reference)}`;
        if (row.transaction_base64 && (await canStillLand(row))) {
          // The transaction handed out may still land: the same bytes, to the same buyer only.
          if (row.buyer !== account) throw new AppError('CONFLICT', TOKEN_SALE_MESSAGES.otherWallet);
          return { transaction: row.transaction_base64, message };
        }
        if (row.transaction_base64 && (await check(reference))) {
          throw new AppError('CONFLICT', TOKEN_SALE_MESSAGES.notAwaiting);
        }
        if (row.expires_at.getTime() <= Date.now()) {
          throw new AppError('CONFLICT', TOKEN_SALE_MESSAGES.notAwaiting);
        }
        if ((await treasuryBalance(accounts)) < BigInt(row.token_amount)) {
          throw new AppError('UNAVAILABLE', TOKEN_SALE_MESSAGES.soldOut);
        }
        const { value: blockhash } = await chain.rpc.getLatestBlockhash({ commitment: 'finalized' }).send();
        const transaction = await buildPurchaseTransaction({
          buyer,
          shopWallet: accounts.shopWallet,
          treasury: accounts.treasury,
          mint: accounts.mint,
          decimals: accounts.decimals,
          tokenProgram: accounts.tokenProgram,
          lamports: BigInt(row.lamports),
          tokenAmount: BigInt(row.token_amount),
          reference: address(reference),
          blockhash,
        });
        const issued = await repo.issueTransaction(row.id, row.blockhash, {
          buyer: account,
          transactionBase64: transaction,
          blockhash: blockhash.blockhash,
          lastValidBlockHeight: blockhash.lastValidBlockHeight,
        });
        if (issued) {
          crashPoint('token-sales:after-issue');
          return { transaction, message };
        }
        // Another request handed one out first: answer by what it handed out.
      }
      throw new AppError('CONFLICT', TOKEN_SALE_MESSAGES.otherWallet);
    },

    check,

    async watch(now = new Date()) {
      const references = await repo.leaseForWatch(
        now,
        {
          liveUntil: new Date(now.getTime() + config.solana.watchIntervalMs),
          lateUntil: new Date(now.getTime() + 30_000),
        },
        50,
      );
      let completed = 0;
      for (const reference of references) {
        try {
          if (await settle(reference, now)) completed++;
        } catch (err) {
          log.warn({ err, reference }, 'token purchase check failed');
        }
      }
      return completed;
    },

    async checkAddresses(keys) {
      for (const reference of await repo.findWatchedReferences(keys)) {
        try {
          await check(reference);
        } catch (err) {
          log.warn({ err, reference }, 'token purchase check failed');
        }
      }
    },

    async listForAdmin(query) {
      const accounts = await chain.accounts().catch(() => null);
      const decimals = accounts?.decimals ?? 6;
      const [{ rows, total }, stats] = await Promise.all([repo.listPage(query), repo.completedStats()]);
      return {
        purchases: toPage(
          rows.map((row) => ({
            id: row.id,
            reference: row.reference,
            status: view(row, decimals).status,
            usdCents: row.usd_cents,
            lamports: String(row.lamports),
            tokenAmount: String(row.token_amount),
            tokenDecimals: decimals,
            buyer: row.buyer,
            signature: row.transaction_signature,
            userEmail: row.user_email,
            createdAt: row.created_at.toISOString(),
            completedAt: row.completed_at?.toISOString() ?? null,
          })),
          query,
          total,
        ),
        stats: {
          completed: Number(stats.completed),
          usdCents: Number(stats.usd_cents),
          tokenAmount: stats.token_amount,
          lamports: stats.lamports,
        },
      };
    },
  };
}
