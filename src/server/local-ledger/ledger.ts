/**
 * The local ledger: the real Solana VM (`litesvm`) in process, with what a node keeps beside the
 * VM and litesvm does not: slots and block heights, a window of valid blockhashes, each
 * transaction's metadata (slot, time, fee, balances and token balances before and after, logs,
 * error), the signature index per address, and the state on disk under DATA_DIR so that a
 * restart keeps every account and every transaction. litesvm (1.4, the newest with a build for
 * every platform) cannot save its state, so every account a transaction or the genesis touched
 * is written to disk and set back into a fresh VM at start.
 *
 * litesvm's own blockhash check is off: it accepts only the very latest blockhash, where a node
 * accepts any of the last 150 blocks; this class checks that window itself.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  address,
  appendTransactionMessageInstruction,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  getTransactionEncoder,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Blockhash,
  type KeyPairSigner,
  type Transaction,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import { decodeMint, decodeTokenAccount, uiTokenAmount, type MintInfo, type StoredAccount } from './accounts';
import { describeRpcError, toRpcError, type RpcTransactionError } from './transaction-error';

/** A node accepts a blockhash for this many blocks after it was produced. */
export const BLOCKHASH_VALIDITY = 150;
export const LAMPORTS_PER_SIGNATURE = 5000n;
const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
const DEFAULT_COMPUTE_UNITS_PER_INSTRUCTION = 200_000n;
const MAX_COMPUTE_UNITS = 1_400_000n;

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: ReturnType<typeof uiTokenAmount>;
}

/** One processed transaction, as kept on disk and served by getTransaction. */
export interface LedgerTransaction {
  signature: string;
  slot: number;
  blockTime: number;
  version: 'legacy' | 0;
  /** The transaction as it was sent (base64 wire bytes). */
  wire: string;
  /** Static keys, then keys loaded from lookup tables (writable, then readonly). */
  accountKeys: string[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  err: RpcTransactionError | null;
  fee: string;
  preBalances: string[];
  postBalances: string[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  logs: string[];
  computeUnitsConsumed: number;
}

export interface SignatureInfo {
  signature: string;
  slot: number;
  err: RpcTransactionError | null;
  blockTime: number;
}

/** A transaction refused before it ran (a node's preflight or sanitize failure). */
export class LedgerRejection extends Error {
  constructor(
    readonly err: RpcTransactionError,
    readonly logs: string[],
    readonly unitsConsumed: number,
  ) {
    super(describeRpcError(err));
  }
}

/** Bytes that are not a transaction, or not one this ledger can decode. */
export class MalformedTransaction extends Error {}

interface LedgerMeta {
  genesisHash: string;
  slot: number;
  /** Recent blockhashes, newest last, with the block height each was made at. */
  blockhashes: { hash: string; height: number }[];
  faucet: number[];
}

interface SavedAccount {
  lamports: string;
  data: string;
  owner: string;
  executable: boolean;
}

export interface SimulationResult {
  err: RpcTransactionError | null;
  logs: string[];
  unitsConsumed: number;
}

interface DecodedTransaction {
  transaction: Transaction;
  signature: string;
  version: 'legacy' | 0;
  numSignatures: number;
  recentBlockhash: string;
  accountKeys: Address[];
  loaded: { writable: Address[]; readonly: Address[] };
  instructions: { programId: string; data: Uint8Array }[];
}

const base58Encoder = getBase58Encoder();
const base58Decoder = getBase58Decoder();
const base64Decoder = getBase64Decoder();

function lookupTableAddresses(data: Uint8Array): Address[] {
  // Address lookup table layout: a 56-byte header, then 32-byte addresses.
  const keys: Address[] = [];
  for (let at = 56; at + 32 <= data.length; at += 32)
    keys.push(base58Decoder.decode(data.subarray(at, at + 32)) as Address);
  return keys;
}

export class LocalLedger {
  private svm: LiteSVM;
  private meta: LedgerMeta;
  private readonly transactions = new Map<string, LedgerTransaction>();
  /** Per address, its signatures oldest first. */
  private readonly byAddress = new Map<string, string[]>();
  private faucetSigner: KeyPairSigner | undefined;
  private readonly listeners = new Set<(record: LedgerTransaction) => void>();
  /** Every account the genesis, a transaction or an airdrop wrote: what `save` keeps. */
  private readonly touched = new Set<string>();

  private constructor(
    private readonly dir: string,
    svm: LiteSVM,
    meta: LedgerMeta,
  ) {
    this.svm = svm;
    this.meta = meta;
  }

  /** Opens the ledger kept in `dir`, or makes a new one there (an empty VM and a faucet). */
  static async open(dir: string): Promise<{ ledger: LocalLedger; isNew: boolean }> {
    mkdirSync(dir, { recursive: true });
    const accountsFile = path.join(dir, 'accounts.json');
    const metaFile = path.join(dir, 'meta.json');
    const isNew = !existsSync(accountsFile) || !existsSync(metaFile);
    const svm = new LiteSVM();
    let meta: LedgerMeta;
    let saved: Record<string, SavedAccount> = {};
    if (isNew) {
      const faucet = crypto.getRandomValues(new Uint8Array(32));
      const faucetSigner = await signerFromSeed(faucet);
      saved[faucetSigner.address] = {
        lamports: (500_000_000n * 1_000_000_000n).toString(),
        data: '',
        owner: '11111111111111111111111111111111',
        executable: false,
      };
      meta = {
        genesisHash: base58Decoder.decode(crypto.getRandomValues(new Uint8Array(32))),
        slot: 1,
        blockhashes: [],
        faucet: [...faucet],
      };
    } else {
      saved = JSON.parse(readFileSync(accountsFile, 'utf8')) as Record<string, SavedAccount>;
      meta = JSON.parse(readFileSync(metaFile, 'utf8')) as LedgerMeta;
    }
    svm.withBlockhashCheck(false).withSigverify(true).withTransactionHistory(100_000n);
    const ledger = new LocalLedger(dir, svm, meta);
    for (const [key, account] of Object.entries(saved)) {
      ledger.setAccount({
        address: address(key),
        lamports: BigInt(account.lamports),
        data: Uint8Array.from(getBase64Encoder().encode(account.data)),
        owner: address(account.owner),
        executable: account.executable,
      });
    }
    ledger.faucetSigner = await signerFromSeed(Uint8Array.from(meta.faucet));
    ledger.svm.warpToSlot(BigInt(meta.slot));
    if (isNew) ledger.advance();
    else ledger.loadTransactions();
    ledger.save();
    return { ledger, isNew };
  }

  // Chain position ------------------------------------------------------------------------------

  get slot(): number {
    return this.meta.slot;
  }

  get blockHeight(): number {
    return this.meta.slot;
  }

  get genesisHash(): string {
    return this.meta.genesisHash;
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    const latest = this.meta.blockhashes[this.meta.blockhashes.length - 1]!;
    return { blockhash: latest.hash, lastValidBlockHeight: latest.height + BLOCKHASH_VALIDITY };
  }

  isBlockhashValid(hash: string): boolean {
    const found = this.meta.blockhashes.find((b) => b.hash === hash);
    return found !== undefined && this.blockHeight <= found.height + BLOCKHASH_VALIDITY;
  }

  /** A new block: the next slot, a new blockhash, the clock at the wall time. */
  private advance(): void {
    this.meta.slot += 1;
    this.svm.warpToSlot(BigInt(this.meta.slot));
    const clock = this.svm.getClock();
    clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000));
    this.svm.setClock(clock);
    // The ledger's own blockhashes (litesvm's check is off): random, so none repeats after a restart.
    const hash = base58Decoder.decode(crypto.getRandomValues(new Uint8Array(32)));
    this.meta.blockhashes.push({ hash, height: this.blockHeight });
    if (this.meta.blockhashes.length > BLOCKHASH_VALIDITY + 50) this.meta.blockhashes.shift();
  }

  // Accounts ------------------------------------------------------------------------------------

  getAccount(key: string): StoredAccount | null {
    const found = this.svm.getAccount(address(key));
    if (!found.exists) return null;
    return {
      address: found.address,
      lamports: found.lamports,
      data: Uint8Array.from(found.data),
      owner: found.programAddress,
      executable: found.executable,
    };
  }

  getBalance(key: string): bigint {
    return this.svm.getBalance(address(key)) ?? 0n;
  }

  /** Every account owned by `program` (litesvm lists them). */
  programAccounts(program: string): StoredAccount[] {
    return this.svm.getProgramAccounts(address(program)).map((a) => ({
      address: a.address,
      lamports: a.lamports,
      data: Uint8Array.from(a.data),
      owner: a.programAddress,
      executable: a.executable,
    }));
  }

  mint(key: string): MintInfo | null {
    const account = this.getAccount(key);
    return account ? decodeMint(account) : null;
  }

  minimumBalanceForRentExemption(dataLength: number): bigint {
    return this.svm.minimumBalanceForRentExemption(BigInt(dataLength));
  }

  /** Writes an account as it is (the genesis of the local ledger), then saves. */
  setAccount(account: StoredAccount): void {
    this.touched.add(account.address);
    this.svm.setAccount({
      address: account.address,
      lamports: lamports(account.lamports),
      data: account.data,
      programAddress: account.owner,
      executable: account.executable,
      space: BigInt(account.data.length),
    });
  }

  // Transactions --------------------------------------------------------------------------------

  private decode(wire: Uint8Array): DecodedTransaction {
    let transaction: Transaction;
    let message: ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['decode']>;
    try {
      transaction = getTransactionDecoder().decode(wire);
      message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    } catch (err) {
      throw new MalformedTransaction(err instanceof Error ? err.message : 'cannot decode the transaction');
    }
    if (message.version !== 'legacy' && message.version !== 0) {
      throw new MalformedTransaction(`transaction version ${String(message.version)} is not supported`);
    }
    const signatures = Object.values(transaction.signatures);
    const first = signatures[0];
    if (!first) throw new MalformedTransaction('the transaction has no signature');
    const loaded = { writable: [] as Address[], readonly: [] as Address[] };
    if (message.version === 0) {
      for (const lookup of message.addressTableLookups ?? []) {
        const table = this.getAccount(lookup.lookupTableAddress);
        const keys = table ? lookupTableAddresses(table.data) : [];
        for (const i of lookup.writableIndexes) if (keys[i]) loaded.writable.push(keys[i]);
        for (const i of lookup.readonlyIndexes) if (keys[i]) loaded.readonly.push(keys[i]);
      }
    }
    const accountKeys = [...message.staticAccounts, ...loaded.writable, ...loaded.readonly];
    return {
      transaction,
      signature: base58Decoder.decode(first),
      version: message.version,
      numSignatures: message.header.numSignerAccounts,
      recentBlockhash: message.lifetimeToken,
      accountKeys,
      loaded,
      instructions: message.instructions.map((ix) => ({
        programId: accountKeys[ix.programAddressIndex] ?? '',
        data: Uint8Array.from(ix.data ?? []),
      })),
    };
  }

  /** The fee a node charges: 5,000 lamports a signature plus the priority fee the message sets. */
  private feeOf(decoded: Pick<DecodedTransaction, 'numSignatures' | 'instructions'>): bigint {
    let microLamportsPerUnit = 0n;
    let unitLimit: bigint | undefined;
    let otherInstructions = 0n;
    for (const ix of decoded.instructions) {
      if (ix.programId !== COMPUTE_BUDGET_PROGRAM) {
        otherInstructions += 1n;
        continue;
      }
      const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
      if (ix.data[0] === 2 && ix.data.length >= 5) unitLimit = BigInt(view.getUint32(1, true));
      if (ix.data[0] === 3 && ix.data.length >= 9) microLamportsPerUnit = view.getBigUint64(1, true);
    }
    const limit = unitLimit ?? otherInstructions * DEFAULT_COMPUTE_UNITS_PER_INSTRUCTION;
    const units = limit > MAX_COMPUTE_UNITS ? MAX_COMPUTE_UNITS : limit;
    const priority = (microLamportsPerUnit * units + 999_999n) / 1_000_000n;
    return LAMPORTS_PER_SIGNATURE * BigInt(decoded.numSignatures) + priority;
  }

  /** The fee for a message (base64 message bytes are decoded by the caller). */
  feeForMessage(messageBytes: Uint8Array): bigint | null {
    try {
      const message = getCompiledTransactionMessageDecoder().decode(messageBytes);
      if (message.version !== 'legacy' && message.version !== 0) return null;
      const keys = message.staticAccounts;
      return this.feeOf({
        numSignatures: message.header.numSignerAccounts,
        instructions: message.instructions.map((ix) => ({
          programId: keys[ix.programAddressIndex] ?? '',
          data: Uint8Array.from(ix.data ?? []),
        })),
      });
    } catch {
      return null;
    }
  }

  private tokenBalances(keys: string[]): TokenBalance[] {
    const balances: TokenBalance[] = [];
    keys.forEach((key, accountIndex) => {
      const account = this.getAccount(key);
      const token = account ? decodeTokenAccount(account) : null;
      if (!account || !token) return;
      balances.push({
        accountIndex,
        mint: token.mint,
        owner: token.owner,
        programId: account.owner,
        uiTokenAmount: uiTokenAmount(token.amount, this.mint(token.mint)?.decimals ?? 0),
      });
    });
    return balances;
  }

  /** Runs the transaction without keeping it. */
  simulate(
    wire: Uint8Array,
    options: { sigVerify?: boolean; replaceRecentBlockhash?: boolean } = {},
  ): SimulationResult {
    const decoded = this.decode(wire);
    if (!options.replaceRecentBlockhash && !this.isBlockhashValid(decoded.recentBlockhash)) {
      return { err: 'BlockhashNotFound', logs: [], unitsConsumed: 0 };
    }
    if (this.transactions.has(decoded.signature))
      return { err: 'AlreadyProcessed', logs: [], unitsConsumed: 0 };
    const sigVerify = options.sigVerify ?? false;
    this.svm.withSigverify(sigVerify && !options.replaceRecentBlockhash);
    try {
      const result = this.svm.simulateTransaction(decoded.transaction);
      if (result instanceof FailedTransactionMetadata) {
        const meta = result.meta();
        return {
          err: toRpcError(result),
          logs: meta.logs(),
          unitsConsumed: Number(meta.computeUnitsConsumed()),
        };
      }
      const meta = result.meta();
      return { err: null, logs: meta.logs(), unitsConsumed: Number(meta.computeUnitsConsumed()) };
    } finally {
      this.svm.withSigverify(true);
    }
  }

  /**
   * Processes a signed transaction in a new block. With preflight, a transaction that would fail
   * is refused (LedgerRejection) and nothing is kept; without it, a failed transaction lands with
   * its error and pays its fee, as on a cluster. A blockhash outside the window is refused either way.
   */
  send(wire: Uint8Array, options: { skipPreflight?: boolean } = {}): string {
    const decoded = this.decode(wire);
    if (this.transactions.has(decoded.signature)) throw new LedgerRejection('AlreadyProcessed', [], 0);
    if (!this.isBlockhashValid(decoded.recentBlockhash))
      throw new LedgerRejection('BlockhashNotFound', [], 0);
    if (!options.skipPreflight) {
      const simulation = this.simulate(wire, { sigVerify: true });
      if (simulation.err)
        throw new LedgerRejection(simulation.err, simulation.logs, simulation.unitsConsumed);
    }
    const keys = decoded.accountKeys as string[];
    const preBalances = keys.map((k) => this.getBalance(k).toString());
    const preTokenBalances = this.tokenBalances(keys);
    const result = this.svm.sendTransaction(decoded.transaction);
    const failed = result instanceof FailedTransactionMetadata;
    const meta = failed ? result.meta() : result;
    const err = failed ? toRpcError(result) : null;
    if (err === 'SignatureFailure' || err === 'AlreadyProcessed' || err === 'SanitizeFailure') {
      // Never lands on a cluster either: refused at the door.
      throw new LedgerRejection(err, meta.logs(), Number(meta.computeUnitsConsumed()));
    }
    if (err === 'InsufficientFundsForFee' || err === 'AccountNotFound') {
      throw new LedgerRejection(err, meta.logs(), Number(meta.computeUnitsConsumed()));
    }
    for (const key of keys) this.touched.add(key);
    const record: LedgerTransaction = {
      signature: decoded.signature,
      slot: this.slot,
      blockTime: Math.floor(Date.now() / 1000),
      version: decoded.version,
      wire: base64Decoder.decode(getTransactionEncoder().encode(decoded.transaction)),
      accountKeys: keys,
      loadedAddresses: { writable: decoded.loaded.writable, readonly: decoded.loaded.readonly },
      err,
      fee: this.feeOf(decoded).toString(),
      preBalances,
      postBalances: keys.map((k) => this.getBalance(k).toString()),
      preTokenBalances,
      postTokenBalances: this.tokenBalances(keys),
      logs: meta.logs(),
      computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
    };
    this.keep(record);
    appendFileSync(path.join(this.dir, 'transactions.ndjson'), `${JSON.stringify(record)}\n`);
    this.advance();
    this.save();
    for (const listener of this.listeners) listener(record);
    return decoded.signature;
  }

  /** requestAirdrop: a real transfer from the ledger's faucet, recorded like any transaction. */
  async airdrop(to: string, amount: bigint): Promise<string> {
    const faucet = this.faucetSigner!;
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(faucet, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          {
            blockhash: this.latestBlockhash().blockhash as Blockhash,
            lastValidBlockHeight: BigInt(this.latestBlockhash().lastValidBlockHeight),
          },
          m,
        ),
      (m) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({ source: faucet, destination: address(to), amount: lamports(amount) }),
          m,
        ),
    );
    const signed = await signTransactionMessageWithSigners(message);
    return this.send(Uint8Array.from(getTransactionEncoder().encode(signed)), { skipPreflight: false });
  }

  /** Calls `listener` with every transaction processed from now on; returns the unsubscribe. */
  onTransaction(listener: (record: LedgerTransaction) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private keep(record: LedgerTransaction): void {
    this.transactions.set(record.signature, record);
    for (const key of new Set(record.accountKeys)) {
      const list = this.byAddress.get(key);
      if (list) list.push(record.signature);
      else this.byAddress.set(key, [record.signature]);
    }
  }

  getTransaction(signature: string): LedgerTransaction | null {
    return this.transactions.get(signature) ?? null;
  }

  /** Newest first, as getSignaturesForAddress answers; `before`/`until` are exclusive bounds. */
  signaturesFor(key: string, options: { limit: number; before?: string; until?: string }): SignatureInfo[] {
    const list = this.byAddress.get(key) ?? [];
    const out: SignatureInfo[] = [];
    let started = options.before === undefined;
    for (let i = list.length - 1; i >= 0 && out.length < options.limit; i--) {
      const signature = list[i]!;
      if (!started) {
        if (signature === options.before) started = true;
        continue;
      }
      if (signature === options.until) break;
      const record = this.transactions.get(signature)!;
      out.push({ signature, slot: record.slot, err: record.err, blockTime: record.blockTime });
    }
    return out;
  }

  // Persistence ---------------------------------------------------------------------------------

  private loadTransactions(): void {
    const file = path.join(this.dir, 'transactions.ndjson');
    if (!existsSync(file)) return;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const record = JSON.parse(line) as LedgerTransaction;
        // A record written just before a crash whose state was not saved did not happen.
        if (record.slot < this.meta.slot) this.keep(record);
      } catch {
        // A torn last line from a crash mid-write.
      }
    }
  }

  /** Every touched account and the chain position, each file written whole (temporary file, rename). */
  save(): void {
    const write = (name: string, data: string) => {
      const file = path.join(this.dir, name);
      writeFileSync(`${file}.tmp`, data);
      renameSync(`${file}.tmp`, file);
    };
    const accounts: Record<string, SavedAccount> = {};
    for (const key of this.touched) {
      const account = this.getAccount(key);
      // Programs come with the VM; a closed account is simply not written back.
      if (!account || account.executable) continue;
      accounts[key] = {
        lamports: account.lamports.toString(),
        data: base64Decoder.decode(account.data),
        owner: account.owner,
        executable: false,
      };
    }
    write('accounts.json', JSON.stringify(accounts));
    write('meta.json', JSON.stringify(this.meta));
  }
}

/** A signer from a 32-byte seed (kept on disk as a Solana CLI-style 64-byte key file). */
export function signerFromSeed(seed: Uint8Array): Promise<KeyPairSigner> {
  return createKeyPairSignerFromPrivateKeyBytes(seed, true);
}

/** The 64 bytes (secret seed then public key) a Solana CLI key file holds. */
export function keyFileBytes(seed: Uint8Array, signer: KeyPairSigner): number[] {
  return [...seed, ...base58Encoder.encode(signer.address)];
}
