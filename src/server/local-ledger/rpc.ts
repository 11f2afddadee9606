/**
 * The Solana JSON-RPC over the local ledger: the methods `@solana/web3.js` 1.x, `@solana/kit`,
 * `@solana/pay` and wallets call to fund, pay, look up and verify, answering in a node's shapes
 * (results with `context.slot`, errors with a node's codes and messages). Every request's params
 * are checked with zod; a bad one is the node's -32602 'Invalid params'.
 */
import {
  getBase58Decoder,
  getBase58Encoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  isAddress,
} from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { z } from 'zod';
import {
  decodeTokenAccount,
  encodeAccount,
  isTokenProgram,
  TOKEN_2022_PROGRAM_ADDRESS,
  uiTokenAmount,
  type AccountEncoding,
  type StoredAccount,
} from './accounts';
import { LedgerRejection, MalformedTransaction, type LedgerTransaction, type LocalLedger } from './ledger';
import { describeRpcError } from './transaction-error';

export const RPC_ERRORS = {
  parse: { code: -32700, message: 'Parse error' },
  invalidRequest: { code: -32600, message: 'Invalid request' },
  methodNotFound: { code: -32601, message: 'Method not found' },
} as const;

/** A JSON-RPC error answer (code, message, optional data), thrown by a method. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

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
const AccountConfig = BaseConfig.extend({
  encoding: EncodingSchema.optional(),
  dataSlice: z.object({ offset: z.number().int().min(0), length: z.number().int().min(0) }).optional(),
});

function params<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value ?? []);
  if (!parsed.success) throw invalidParams(parsed.error.issues[0]?.message ?? 'bad params');
  return parsed.data;
}

/** What a node writes for a bigint: a plain JSON number (u64 values are written in full). */
export function stringifyRpc(value: unknown): string {
  const marks: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    marks.push(v.toString());
    return `__bigint_${marks.length - 1}__`;
  });
  return text.replace(/"__bigint_(\d+)__"/g, (_m, i: string) => marks[Number(i)]!);
}

export function createRpcHandler(ledger: LocalLedger) {
  const context = () => ({ apiVersion: '2.2.0', slot: ledger.slot });
  const withContext = <T>(value: T) => ({ context: context(), value });
  const account = (
    key: string,
    encoding: AccountEncoding,
    dataSlice?: { offset: number; length: number },
  ) => {
    const found = ledger.getAccount(key);
    return found ? encodeAccount(found, encoding, (mint) => ledger.mint(mint), dataSlice) : null;
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
  const tokenAccounts = (filter: (a: StoredAccount) => boolean, programs: string[]) =>
    programs
      .flatMap((program) => ledger.programAccounts(program))
      .filter((a) => decodeTokenAccount(a) && filter(a));

  const methods: Record<string, (p: unknown) => unknown> = {
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
      params(z.tuple([z.number().int()]), p);
      return Math.floor(Date.now() / 1000);
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
      const fee = ledger.feeForMessage(decodeWire(message, 'base64'));
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
    getAccountInfo: (p) => {
      const [key, config] = params(z.tuple([AddressSchema]).rest(AccountConfig), p);
      return withContext(account(key, config?.encoding ?? 'base58', config?.dataSlice));
    },
    getMultipleAccounts: (p) => {
      const [keys, config] = params(z.tuple([z.array(AddressSchema).max(100)]).rest(AccountConfig), p);
      return withContext(keys.map((k) => account(k, config?.encoding ?? 'base64', config?.dataSlice)));
    },
    getProgramAccounts: (p) => {
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
        if ('dataSize' in f) return (a: StoredAccount) => a.data.length === f.dataSize;
        const bytes = decodeWire(f.memcmp.bytes, f.memcmp.encoding ?? 'base58');
        return (a: StoredAccount) =>
          a.data.length >= f.memcmp.offset + bytes.length &&
          bytes.every((b, i) => a.data[f.memcmp.offset + i] === b);
      });
      const value = ledger
        .programAccounts(program)
        .filter((a) => filters.every((f) => f(a)))
        .map((a) => ({
          pubkey: a.address,
          account: encodeAccount(a, config?.encoding ?? 'base64', (m) => ledger.mint(m), config?.dataSlice),
        }));
      return config?.withContext ? withContext(value) : value;
    },
    getTokenAccountsByOwner: (p) => {
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
      const value = tokenAccounts((a) => {
        const token = decodeTokenAccount(a)!;
        return token.owner === owner && (!('mint' in filter) || token.mint === filter.mint);
      }, programs).map((a) => ({
        pubkey: a.address,
        account: encodeAccount(a, config?.encoding ?? 'base64', (m) => ledger.mint(m), config?.dataSlice),
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
    getTokenLargestAccounts: (p) => {
      const [key] = params(z.tuple([AddressSchema]).rest(BaseConfig), p);
      const mint = ledger.mint(key);
      if (!mint) throw invalidParams('Invalid param: not a Token mint');
      const value = tokenAccounts(
        (a) => decodeTokenAccount(a)!.mint === key,
        [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS],
      )
        .map((a) => ({ address: a.address, amount: decodeTokenAccount(a)!.amount }))
        .sort((a, b) => (a.amount === b.amount ? 0 : a.amount > b.amount ? -1 : 1))
        .slice(0, 20)
        .map((a) => ({ address: a.address, ...uiTokenAmount(a.amount, mint.decimals) }));
      return withContext(value);
    },

    sendTransaction: (p) => {
      const [wire, config] = params(
        z.tuple([z.string()]).rest(
          BaseConfig.extend({
            encoding: z.enum(['base58', 'base64']).optional(),
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
        if (err instanceof LedgerRejection) {
          throw new RpcError(-32002, `Transaction simulation failed: ${describeRpcError(err.err)}`, {
            accounts: null,
            err: err.err,
            innerInstructions: null,
            logs: err.logs,
            replacementBlockhash: null,
            returnData: null,
            unitsConsumed: err.unitsConsumed,
          });
        }
        throw err;
      }
    },
    simulateTransaction: (p) => {
      const [wire, config] = params(
        z.tuple([z.string()]).rest(
          BaseConfig.extend({
            encoding: z.enum(['base58', 'base64']).optional(),
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
      return withContext({
        accounts: null,
        err: result.err,
        innerInstructions: null,
        logs: result.logs,
        replacementBlockhash: config?.replaceRecentBlockhash ? ledger.latestBlockhash() : null,
        returnData: null,
        unitsConsumed: result.unitsConsumed,
      });
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

  /** Answers one JSON-RPC request object. */
  async function handleOne(request: unknown): Promise<unknown> {
    const parsed = z
      .object({
        jsonrpc: z.literal('2.0'),
        id: z.union([z.string(), z.number(), z.null()]).optional(),
        method: z.string(),
        params: z.unknown().optional(),
      })
      .safeParse(request);
    const id = (request as { id?: unknown } | null)?.id ?? null;
    if (!parsed.success) return { jsonrpc: '2.0', error: RPC_ERRORS.invalidRequest, id };
    const method = methods[parsed.data.method];
    if (!method) return { jsonrpc: '2.0', error: RPC_ERRORS.methodNotFound, id };
    try {
      return { jsonrpc: '2.0', result: await method(parsed.data.params), id };
    } catch (err) {
      if (err instanceof RpcError) {
        const error =
          err.data === undefined
            ? { code: err.code, message: err.message }
            : { code: err.code, message: err.message, data: err.data };
        return { jsonrpc: '2.0', error, id };
      }
      if (err instanceof MalformedTransaction) {
        return {
          jsonrpc: '2.0',
          error: { code: -32602, message: `invalid transaction: ${err.message}` },
          id,
        };
      }
      throw err;
    }
  }

  /** Answers a request body (one request or a batch); the text to send back. */
  return async function handle(body: string): Promise<string> {
    let request: unknown;
    try {
      request = JSON.parse(body);
    } catch {
      return stringifyRpc({ jsonrpc: '2.0', error: RPC_ERRORS.parse, id: null });
    }
    if (Array.isArray(request)) {
      if (request.length === 0)
        return stringifyRpc({ jsonrpc: '2.0', error: RPC_ERRORS.invalidRequest, id: null });
      const answers = [];
      for (const one of request.slice(0, 100)) answers.push(await handleOne(one));
      return stringifyRpc(answers);
    }
    return stringifyRpc(await handleOne(request));
  };
}

function transactionResponse(record: LedgerTransaction, encoding: string, maxVersion: number | undefined) {
  const meta = {
    err: record.err,
    status: record.err ? { Err: record.err } : { Ok: null },
    fee: BigInt(record.fee),
    preBalances: record.preBalances.map(BigInt),
    postBalances: record.postBalances.map(BigInt),
    innerInstructions: [],
    logMessages: record.logs,
    preTokenBalances: record.preTokenBalances,
    postTokenBalances: record.postTokenBalances,
    rewards: [],
    loadedAddresses: record.loadedAddresses,
    computeUnitsConsumed: record.computeUnitsConsumed,
  };
  const base = {
    slot: record.slot,
    blockTime: record.blockTime,
    ...(maxVersion !== undefined ? { version: record.version } : {}),
    meta,
  };
  if (encoding === 'base64') return { ...base, transaction: [record.wire, 'base64'] };
  const bytes = Uint8Array.from(getBase64Encoder().encode(record.wire));
  if (encoding === 'base58') return { ...base, transaction: [getBase58Decoder().decode(bytes), 'base58'] };
  const decoded = decodeForJson(bytes);
  if (encoding === 'jsonParsed') {
    const staticCount = decoded.message.accountKeys.length;
    const { header } = decoded.message;
    const keys = record.accountKeys.map((pubkey, i) => ({
      pubkey,
      signer: i < header.numRequiredSignatures,
      writable:
        i < staticCount
          ? i < header.numRequiredSignatures - header.numReadonlySignedAccounts ||
            (i >= header.numRequiredSignatures && i < staticCount - header.numReadonlyUnsignedAccounts)
          : record.loadedAddresses.writable.includes(pubkey),
      source: i < staticCount ? 'transaction' : 'lookupTable',
    }));
    return {
      ...base,
      transaction: {
        signatures: decoded.signatures,
        message: {
          accountKeys: keys,
          recentBlockhash: decoded.message.recentBlockhash,
          instructions: decoded.message.instructions.map((ix) => ({
            programId: record.accountKeys[ix.programIdIndex],
            accounts: ix.accounts.map((i) => record.accountKeys[i]),
            data: ix.data,
            stackHeight: null,
          })),
          ...(decoded.message.addressTableLookups
            ? { addressTableLookups: decoded.message.addressTableLookups }
            : {}),
        },
      },
    };
  }
  return { ...base, transaction: decoded };
}

/** A transaction in the RPC's `json` encoding (instruction data in base58). */
function decodeForJson(bytes: Uint8Array) {
  const transaction = getTransactionDecoder().decode(bytes);
  const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  if (message.version !== 'legacy' && message.version !== 0)
    throw new MalformedTransaction('unsupported version');
  const b58 = getBase58Decoder();
  return {
    signatures: Object.values(transaction.signatures).map((s) => (s ? b58.decode(s) : '1'.repeat(64))),
    message: {
      header: {
        numRequiredSignatures: message.header.numSignerAccounts,
        numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
      },
      accountKeys: message.staticAccounts as string[],
      recentBlockhash: message.lifetimeToken,
      instructions: message.instructions.map((ix) => ({
        programIdIndex: ix.programAddressIndex,
        accounts: [...(ix.accountIndices ?? [])],
        data: b58.decode(Uint8Array.from(ix.data ?? [])),
        stackHeight: null,
      })),
      ...(message.version === 0
        ? {
            addressTableLookups: (message.addressTableLookups ?? []).map((l) => ({
              accountKey: l.lookupTableAddress,
              writableIndexes: [...l.writableIndexes],
              readonlyIndexes: [...l.readonlyIndexes],
            })),
          }
        : {}),
    },
  };
}
