/**
 * The account methods of the local ledger's JSON-RPC (balances, accounts, program and token
 * listings) and the per-request work caps they are charged against.
 *
 * A client's request (a body: one call or a batch) comes with limits (RequestLimits): the calls in
 * a batch, the accounts and account data its answers may hold, and the accounts its listings may
 * look at; past one, the call that crossed it and the rest answer a node's scan error (-32012).
 * The shop's own calls come without limits.
 */
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
import { RpcError, type RpcMethod } from './json-rpc';
import type { LocalLedger } from './ledger';
import { AddressSchema, BaseConfig, contextWrapper, decodeWire, invalidParams, params } from './rpc-params';

const EncodingSchema = z.enum(['base64', 'base58', 'jsonParsed']);
const AccountConfig = BaseConfig.extend({
  encoding: EncodingSchema.optional(),
  dataSlice: z.object({ offset: z.number().int().min(0), length: z.number().int().min(0) }).optional(),
});

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
export class RequestBudget {
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

export function accountMethods(ledger: LocalLedger): Record<string, RpcMethod<RequestBudget>> {
  const withContext = contextWrapper(ledger);
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

  return {
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
  };
}
