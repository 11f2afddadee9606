/**
 * The Solana JSON-RPC over the local ledger: the methods `@solana/web3.js` 1.x, `@solana/kit`,
 * `@solana/pay` and wallets call to fund, pay, look up and verify, answering in a node's shapes
 * (results with `context.slot`, errors with a node's codes and messages). Every request's params
 * are checked with zod; a bad one is the node's -32602 'Invalid params'.
 *
 * A client's request (a body: one call or a batch) comes with limits (RequestLimits): the calls in
 * a batch, the accounts and account data its answers may hold, and the accounts its listings may
 * look at; past one, the call that crossed it and the rest answer a node's scan error (-32012).
 * The shop's own calls come without limits.
 */
import { getBase58Encoder, getBase64Encoder, isAddress } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { TOKEN_2022_PROGRAM_ADDRESS } from '@solana-program/token-2022';
import { z } from 'zod';
import {
  decodeTokenAccount,
  encodeAccount,
  isTokenProgram,
  uiTokenAmount,
  type AccountEncoding,
  type StoredAccount,
} from './accounts';
import { createJsonRpcHandler, RpcError, type RpcMethod } from './json-rpc';
import type { LocalLedger } from './ledger';
import { MalformedTransaction, messageFee } from './transaction-decoding';
import { transactionResponse } from './transaction-response';
import { describeRpcError, LedgerRejection, type SimulationResult } from './transaction-error';

const invalidParams = (detail: string) => new RpcError(-32602, `Invalid params: ${detail}`);

const AddressSchema = z.string().refine(isAddress, 'Invalid param: WrongSize');
const CommitmentSchema = z.enum([
  'processed',
  'confirmed',
  'finalized',
  'recent',
  'single',
  'singleGossip',
  'root',
  'max',
]);
const EncodingSchema = z.enum(['base64', 'base58', 'jsonParsed']);
const BaseConfig = z
  .object({ commitment: CommitmentSchema.optional(), minContextSlot: z.number().int().optional() })
  .loose();
/** sendTransaction and simulateTransaction: how the transaction string is encoded. */
const WireConfig = BaseConfig.extend({ encoding: z.enum(['base58', 'base64']).optional() });
const AccountConfig = BaseConfig.extend({
  encoding: EncodingSchema.optional(),
  dataSlice: z.object({ offset: z.number().int().min(0), length: z.number().int().min(0) }).optional(),
});

/** A simulation's outcome as the RPC writes it (also the data of a failed preflight). */
function simulationValue(result: SimulationResult, replacementBlockhash: unknown) {
  return {
    accounts: null,
    err: result.err,
    innerInstructions: null,
    logs: result.logs,
    replacementBlockhash,
    returnData: null,
    unitsConsumed: result.unitsConsumed,
  };
}

/** What one client request may do (the shop's own requests have no limits). */
export interface RequestLimits {
  /** Calls in one batch. */
  maxBatch: number;
  /** Accounts its answers may hold; its listings may look at ten times as many. */
  maxAccounts: number;
  /** Bytes of account data its answers may hold. */
  maxDataBytes: number;
}

/** A listing may look at this many accounts for each one a request may return. */
export const SCAN_FACTOR = 10;

/** What a request has left of its limits; each account answered or looked at is charged. */
class RequestBudget {
  private accounts = 0;
  private data = 0;
  private scanned = 0;
  constructor(private readonly limits: RequestLimits | undefined) {}

  private static exceeded(detail: string) {
    return new RpcError(-32012, `scan error: The accumulated scan results exceeded the limit (${detail})`);
  }

  /** A listing looked at `count` accounts. */
  scan(count: number): void {
    if (!this.limits) return;
    this.scanned += count;
    const max = this.limits.maxAccounts * SCAN_FACTOR;
    if (this.scanned > max) throw RequestBudget.exceeded(`one request may look at most ${max} accounts`);
  }

  /** An account is answered with `dataBytes` of its data. */
  answer(dataBytes: number): void {
    if (!this.limits) return;
    this.accounts += 1;
    this.data += dataBytes;
    if (this.accounts > this.limits.maxAccounts) {
      throw RequestBudget.exceeded(`one request may return at most ${this.limits.maxAccounts} accounts`);
    }
    if (this.data > this.limits.maxDataBytes) {
      throw RequestBudget.exceeded(
        `one request may return at most ${this.limits.maxDataBytes} bytes of account data`,
      );
    }
  }
}

function params<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value ?? []);
  if (!parsed.success) throw invalidParams(parsed.error.issues[0]?.message ?? 'bad params');
  return parsed.data;
}

export function createRpcHandler(ledger: LocalLedger) {
  const context = () => ({ apiVersion: '2.2.0', slot: ledger.slot });
  const withContext = <T>(value: T) => ({ context: context(), value });
  const encode = (
    budget: RequestBudget,
    found: StoredAccount,
    encoding: AccountEncoding,
    dataSlice?: { offset: number; length: number },
  ) => {
    budget.answer(dataSlice ? Math.min(dataSlice.length, found.data.length) : found.data.length);
    return encodeAccount(found, encoding, (mint) => ledger.mint(mint), dataSlice);
  };
  const account = (
    budget: RequestBudget,
    key: string,
    encoding: AccountEncoding,
    dataSlice?: { offset: number; length: number },
  ) => {
    const found = ledger.getAccount(key);
    return found ? encode(budget, found, encoding, dataSlice) : null;
  };
  const decodeWire = (text: string, encoding: 'base58' | 'base64') => {
    try {
      return encoding === 'base58'
        ? Uint8Array.from(getBase58Encoder().encode(text))
        : Uint8Array.from(getBase64Encoder().encode(text));
    } catch {
      throw invalidParams(`invalid ${encoding} encoding`);
    }
  };
  /** Listings: every account the program owns is looked at (and charged), the kept ones returned. */
  const listProgram = (budget: RequestBudget, program: string, keep?: (data: Uint8Array) => boolean) => {
    const { accounts, scanned } = ledger.programAccounts(program, keep);
    budget.scan(scanned);
    return accounts;
  };
  const tokenAccounts = (budget: RequestBudget, filter: (a: StoredAccount) => boolean, programs: string[]) =>
    programs
      .flatMap((program) => listProgram(budget, program))
      .filter((a) => decodeTokenAccount(a) && filter(a));

  const methods: Record<string, RpcMethod<RequestBudget>> = {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': '2.2.0', 'feature-set': 3294202862 }),
    getGenesisHash: () => ledger.genesisHash,
    getSlot: () => ledger.slot,
    getBlockHeight: () => ledger.blockHeight,
    getEpochInfo: () => ({
      absoluteSlot: ledger.slot,
      blockHeight: ledger.blockHeight,
      epoch: 0,
      slotIndex: ledger.slot,
      slotsInEpoch: 432000,
      transactionCount: null,
    }),
    getFirstAvailableBlock: () => 0,
    getRecentPrioritizationFees: () => [],
    getBlockTime: (p) => {
      const [slot] = params(z.tuple([z.number().int().min(0)]), p);
      const time = ledger.blockTime(slot);
      if (time === null) throw new RpcError(-32004, `Block not available for slot ${slot}`);
      return time;
    },

    getLatestBlockhash: (p) => {
      params(z.tuple([BaseConfig.optional()]).or(z.tuple([])), p);
      return withContext(ledger.latestBlockhash());
    },
    isBlockhashValid: (p) => {
      const [hash] = params(z.tuple([z.string()]).rest(BaseConfig), p);
      return withContext(ledger.isBlockhashValid(hash));
    },
    getFeeForMessage: (p) => {
      const [message] = params(z.tuple([z.string()]).rest(BaseConfig), p);
      const fee = messageFee(decodeWire(message, 'base64'));
      return withContext(fee === null ? null : Number(fee));
    },
    getMinimumBalanceForRentExemption: (p) => {
      const [length] = params(z.tuple([z.number().int().min(0)]).rest(BaseConfig), p);
      return ledger.minimumBalanceForRentExemption(length);
    },

    getBalance: (p) => {
      const [key] = params(z.tuple([AddressSchema]).rest(BaseConfig), p);
      return withContext(ledger.getBalance(key));
    },
    getAccountInfo: (p, budget) => {
      const [key, config] = params(z.tuple([AddressSchema]).rest(AccountConfig), p);
      return withContext(account(budget, key, config?.encoding ?? 'base58', config?.dataSlice));
    },
    getMultipleAccounts: (p, budget) => {
      const [keys, config] = params(z.tuple([z.array(AddressSchema).max(100)]).rest(AccountConfig), p);
      return withContext(
        keys.map((k) => account(budget, k, config?.encoding ?? 'base64', config?.dataSlice)),
      );
    },
    getProgramAccounts: (p, budget) => {
      const [program, config] = params(
        z.tuple([AddressSchema]).rest(
          AccountConfig.extend({
            withContext: z.boolean().optional(),
            filters: z
              .array(
                z.union([
                  z.object({ dataSize: z.number().int().min(0) }),
                  z.object({
                    memcmp: z.object({
                      offset: z.number().int().min(0),
                      bytes: z.string(),
                      encoding: z.enum(['base58', 'base64']).optional(),
                    }),
                  }),
                ]),
              )
              .max(4)
              .optional(),
          }),
        ),
        p,
      );
      const filters = (config?.filters ?? []).map((f) => {
        if ('dataSize' in f) return (data: Uint8Array) => data.length === f.dataSize;
        const bytes = decodeWire(f.memcmp.bytes, f.memcmp.encoding ?? 'base58');
        return (data: Uint8Array) =>
          data.length >= f.memcmp.offset + bytes.length &&
          bytes.every((b, i) => data[f.memcmp.offset + i] === b);
      });
      const value = listProgram(budget, program, (data) => filters.every((f) => f(data))).map((a) => ({
        pubkey: a.address,
        account: encode(budget, a, config?.encoding ?? 'base64', config?.dataSlice),
      }));
      return config?.withContext ? withContext(value) : value;
    },
    getTokenAccountsByOwner: (p, budget) => {
      const [owner, filter, config] = params(
        z
          .tuple([
            AddressSchema,
            z.union([z.object({ mint: AddressSchema }), z.object({ programId: AddressSchema })]),
          ])
          .rest(AccountConfig),
        p,
      );
      if ('programId' in filter && !isTokenProgram(filter.programId)) {
        throw invalidParams('unrecognized Token program id');
      }
      const programs =
        'programId' in filter ? [filter.programId] : [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS];
      const value = tokenAccounts(
        budget,
        (a) => {
          const token = decodeTokenAccount(a)!;
          return token.owner === owner && (!('mint' in filter) || token.mint === filter.mint);
        },
        programs,
      ).map((a) => ({
        pubkey: a.address,
        account: encode(budget, a, config?.encoding ?? 'base64', config?.dataSlice),
      }));
      return withContext(value);
    },
    getTokenAccountBalance: (p) => {
      const [key] = params(z.tuple([AddressSchema]).rest(BaseConfig), p);
      const found = ledger.getAccount(key);
      const token = found ? decodeTokenAccount(found) : null;
      if (!token) throw invalidParams('Invalid param: not a Token account');
      return withContext(uiTokenAmount(token.amount, ledger.mint(token.mint)?.decimals ?? 0));
    },
    getTokenSupply: (p) => {
      const [key] = params(z.tuple([AddressSchema]).rest(BaseConfig), p);
      const mint = ledger.mint(key);
      if (!mint) throw invalidParams('Invalid param: not a Token mint');
      return withContext(uiTokenAmount(mint.supply, mint.decimals));
    },
    getTokenLargestAccounts: (p, budget) => {
      const [key] = params(z.tuple([AddressSchema]).rest(BaseConfig), p);
      const mint = ledger.mint(key);
      if (!mint) throw invalidParams('Invalid param: not a Token mint');
      const value = tokenAccounts(budget, (a) => decodeTokenAccount(a)!.mint === key, [
        TOKEN_PROGRAM_ADDRESS,
        TOKEN_2022_PROGRAM_ADDRESS,
      ])
        .map((a) => ({ address: a.address, amount: decodeTokenAccount(a)!.amount }))
        .sort((a, b) => (a.amount === b.amount ? 0 : a.amount > b.amount ? -1 : 1))
        .slice(0, 20)
        .map((a) => ({ address: a.address, ...uiTokenAmount(a.amount, mint.decimals) }));
      return withContext(value);
    },

    sendTransaction: (p) => {
      const [wire, config] = params(
        z.tuple([z.string()]).rest(
          WireConfig.extend({
            skipPreflight: z.boolean().optional(),
            preflightCommitment: CommitmentSchema.optional(),
            maxRetries: z.number().int().optional(),
          }),
        ),
        p,
      );
      try {
        return ledger.send(decodeWire(wire, config?.encoding ?? 'base58'), {
          skipPreflight: config?.skipPreflight,
        });
      } catch (err) {
        if (!(err instanceof LedgerRejection)) throw err;
        throw new RpcError(
          -32002,
          `Transaction simulation failed: ${describeRpcError(err.err)}`,
          simulationValue(err, null),
        );
      }
    },
    simulateTransaction: (p) => {
      const [wire, config] = params(
        z.tuple([z.string()]).rest(
          WireConfig.extend({
            sigVerify: z.boolean().optional(),
            replaceRecentBlockhash: z.boolean().optional(),
            accounts: z.unknown().optional(),
            innerInstructions: z.boolean().optional(),
          }),
        ),
        p,
      );
      if (config?.sigVerify && config.replaceRecentBlockhash) {
        throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
      }
      const result = ledger.simulate(decodeWire(wire, config?.encoding ?? 'base58'), config ?? {});
      return withContext(
        simulationValue(result, config?.replaceRecentBlockhash ? ledger.latestBlockhash() : null),
      );
    },
    requestAirdrop: async (p) => {
      const [key, amount] = params(z.tuple([AddressSchema, z.number().int().positive()]).rest(BaseConfig), p);
      if (amount > 1_000 * 1_000_000_000)
        throw new RpcError(-32600, 'airdrop request too large: at most 1000 SOL');
      return ledger.airdrop(key, BigInt(amount));
    },

    getSignatureStatuses: (p) => {
      const [signatures] = params(
        z
          .tuple([z.array(z.string()).max(256)])
          .rest(z.object({ searchTransactionHistory: z.boolean().optional() })),
        p,
      );
      return withContext(
        signatures.map((signature) => {
          const record = ledger.getTransaction(signature);
          if (!record) return null;
          return {
            slot: record.slot,
            confirmations: null,
            err: record.err,
            status: record.err ? { Err: record.err } : { Ok: null },
            confirmationStatus: 'finalized',
          };
        }),
      );
    },
    getSignaturesForAddress: (p) => {
      const [key, config] = params(
        z.tuple([AddressSchema]).rest(
          BaseConfig.extend({
            limit: z.number().int().min(1).max(1000).optional(),
            before: z.string().optional(),
            until: z.string().optional(),
          }),
        ),
        p,
      );
      return ledger
        .signaturesFor(key, { limit: config?.limit ?? 1000, before: config?.before, until: config?.until })
        .map((s) => ({ ...s, memo: null, confirmationStatus: 'finalized' }));
    },
    getTransaction: (p) => {
      const [signature, config] = params(
        z.tuple([z.string()]).rest(
          BaseConfig.extend({
            encoding: z.enum(['json', 'jsonParsed', 'base64', 'base58']).optional(),
            maxSupportedTransactionVersion: z.number().int().min(0).optional(),
          }),
        ),
        p,
      );
      const record = ledger.getTransaction(signature);
      if (!record) return null;
      if (record.version === 0 && config?.maxSupportedTransactionVersion === undefined) {
        throw new RpcError(
          -32015,
          'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
        );
      }
      return transactionResponse(record, config?.encoding ?? 'json', config?.maxSupportedTransactionVersion);
    },
  };

  return createJsonRpcHandler(methods, {
    context: (limits: RequestLimits | undefined) => new RequestBudget(limits),
    translate: (err) =>
      err instanceof MalformedTransaction
        ? new RpcError(-32602, `invalid transaction: ${err.message}`)
        : undefined,
  });
}
