/**
 * The local ledger: the real Solana VM (`litesvm`) in process, with what a node keeps beside the
 * VM and litesvm does not: slots, block heights, the window of valid blockhashes and the pace
 * of blocks (block-clock.ts), each transaction's metadata (slot, time, fee, balances and token balances before and after, logs,
 * error), the signature index per address (transaction-index.ts), and the state on disk (ledger-store.ts) so that a
 * restart keeps every account and every transaction. litesvm (1.4, the newest with a build for
 * every platform) cannot save its state, so every account a transaction or the genesis touched
 * is saved (a journal line per step) and set back into a fresh VM at start.
 *
 * Runs on the thread that opened it: the server's ledger worker (ledger-worker.ts), or a bench's
 * node process.
 */
import {
  address,
  appendTransactionMessageInstruction,
  createTransactionMessage,
  getBase64Decoder,
  getBase64Encoder,
  getTransactionEncoder,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Blockhash,
  type KeyPairSigner,
} from '@solana/kit';
import { getTransferSolInstruction, SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import { BlockClock, randomHash } from './block-clock';
import { listProgramAccounts, toStored } from './svm-accounts';
import { decodeMint, decodeTokenAccount, uiTokenAmount, type MintInfo, type StoredAccount } from './accounts';
import {
  createLedgerStore,
  signerFromSeed,
  type LedgerMeta,
  type LedgerStore,
  type LedgerStoreOptions,
  type LedgerTransaction,
  type SavedAccount,
  type TokenBalance,
} from './ledger-store';
import { decodeTransaction, transactionFee, type DecodedTransaction } from './transaction-decoding';
import { TransactionIndex, type SignatureInfo } from './transaction-index';
import {
  LedgerRejection,
  toRpcError,
  type RpcTransactionError,
  type SimulationResult,
} from './transaction-error';

/** Errors that keep a transaction out of any block: refused at the door, nothing charged. */
const REFUSED: ReadonlySet<RpcTransactionError> = new Set([
  'SignatureFailure',
  'AlreadyProcessed',
  'SanitizeFailure',
  'InsufficientFundsForFee',
  'AccountNotFound',
]);

const base64Decoder = getBase64Decoder();

export class LocalLedger {
  private readonly svm = new LiteSVM();
  private readonly transactions = new TransactionIndex();
  private readonly listeners = new Set<(record: LedgerTransaction) => void>();
  /** Accounts written since the last `save`: only these are read back from the VM. */
  private readonly touched = new Set<string>();
  private readonly clock: BlockClock;
  private closed = false;

  private constructor(
    private readonly store: LedgerStore,
    private readonly meta: LedgerMeta,
    private readonly faucet: KeyPairSigner,
  ) {
    this.svm.withBlockhashCheck(false).withSigverify(true).withTransactionHistory(100_000n);
    // A block the pace held back closes on a timer: that step is saved then.
    this.clock = new BlockClock(this.svm, meta, () => this.save());
  }

  /** Opens the ledger kept in `dir`, or makes a new one there (an empty VM and a faucet). */
  static async open(
    dir: string,
    options: LedgerStoreOptions = {},
  ): Promise<{ ledger: LocalLedger; isNew: boolean }> {
    const store = createLedgerStore(dir, options);
    const saved = store.read();
    const faucetSeed = saved
      ? Uint8Array.from(saved.meta.faucet)
      : crypto.getRandomValues(new Uint8Array(32));
    const faucet = await signerFromSeed(faucetSeed);
    const meta: LedgerMeta = saved?.meta ?? {
      genesisHash: randomHash(),
      slot: 1,
      blockhashes: [],
      faucet: [...faucetSeed],
    };
    if (!saved) store.create(meta);
    const accounts: Map<string, SavedAccount> =
      saved?.accounts ??
      new Map([
        [
          faucet.address,
          {
            lamports: (500_000_000n * 1_000_000_000n).toString(),
            data: '',
            owner: SYSTEM_PROGRAM_ADDRESS,
            executable: false,
          },
        ],
      ]);
    const ledger = new LocalLedger(store, meta, faucet);
    const base64 = getBase64Encoder();
    for (const [key, account] of accounts) {
      ledger.setAccount({
        address: address(key),
        lamports: BigInt(account.lamports),
        data: Uint8Array.from(base64.encode(account.data)),
        owner: address(account.owner),
        executable: account.executable,
      });
    }
    ledger.clock.resume();
    if (saved) {
      for (const record of saved.transactions) ledger.transactions.add(record);
      // Set back from disk: nothing to save again.
      ledger.touched.clear();
    } else {
      ledger.clock.advance();
      ledger.save();
    }
    return { ledger, isNew: !saved };
  }

  // Chain position ------------------------------------------------------------------------------

  get slot(): number {
    return this.clock.slot;
  }

  get blockHeight(): number {
    return this.clock.blockHeight;
  }

  get genesisHash(): string {
    return this.meta.genesisHash;
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    return this.clock.latestBlockhash();
  }

  isBlockhashValid(hash: string): boolean {
    return this.clock.isBlockhashValid(hash);
  }

  // Accounts ------------------------------------------------------------------------------------

  getAccount(key: string): StoredAccount | null {
    const found = this.svm.getAccount(address(key));
    return found.exists ? toStored(found) : null;
  }

  getBalance(key: string): bigint {
    return this.svm.getBalance(address(key)) ?? 0n;
  }

  /**
   * Every account owned by `program` whose data passes `keep` (litesvm lists them), and how many
   * the program owns (each was looked at).
   */
  programAccounts(
    program: string,
    keep: (data: Uint8Array) => boolean = () => true,
  ): { accounts: StoredAccount[]; scanned: number } {
    return listProgramAccounts(this.svm, program, keep);
  }

  mint(key: string): MintInfo | null {
    const account = this.getAccount(key);
    return account ? decodeMint(account) : null;
  }

  minimumBalanceForRentExemption(dataLength: number): bigint {
    return this.svm.minimumBalanceForRentExemption(BigInt(dataLength));
  }

  /** Writes an account as it is (the genesis of the local ledger); `save` keeps it. */
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
    return decodeTransaction(wire, (key) => this.getAccount(key)?.data ?? null);
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
    this.svm.withSigverify(Boolean(options.sigVerify) && !options.replaceRecentBlockhash);
    try {
      const result = this.svm.simulateTransaction(decoded.transaction);
      const failed = result instanceof FailedTransactionMetadata;
      const meta = result.meta();
      return {
        err: failed ? toRpcError(result) : null,
        logs: meta.logs(),
        unitsConsumed: Number(meta.computeUnitsConsumed()),
      };
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
    if (err !== null && REFUSED.has(err)) {
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
      fee: transactionFee(decoded).toString(),
      preBalances,
      postBalances: keys.map((k) => this.getBalance(k).toString()),
      preTokenBalances,
      postTokenBalances: this.tokenBalances(keys),
      logs: meta.logs(),
      computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
    };
    this.transactions.add(record);
    this.clock.afterTransaction();
    this.save(record);
    for (const listener of this.listeners) listener(record);
    return decoded.signature;
  }

  /** requestAirdrop: a real transfer from the ledger's faucet, recorded like any transaction. */
  async airdrop(to: string, amount: bigint): Promise<string> {
    const { faucet } = this;
    const { blockhash, lastValidBlockHeight } = this.latestBlockhash();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(faucet, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: blockhash as Blockhash, lastValidBlockHeight: BigInt(lastValidBlockHeight) },
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

  /** When the block at `slot` was made: its transaction's time (each block holds one), else null. */
  blockTime(slot: number): number | null {
    return this.transactions.blockTime(slot);
  }

  getTransaction(signature: string): LedgerTransaction | null {
    return this.transactions.get(signature);
  }

  /** Newest first, as getSignaturesForAddress answers; `before`/`until` are exclusive bounds. */
  signaturesFor(key: string, options: { limit: number; before?: string; until?: string }): SignatureInfo[] {
    return this.transactions.signaturesFor(key, options);
  }

  /**
   * Saves one step: the accounts written since the last save (only these are read back from the
   * VM: a transaction costs the same with ten accounts on the ledger as with ten thousand), the
   * chain position, and the transaction the step processed. Programs come with the VM.
   */
  save(transaction?: LedgerTransaction): void {
    const changed: Record<string, SavedAccount | null> = {};
    for (const key of this.touched) {
      const account = this.getAccount(key);
      changed[key] =
        !account || account.executable
          ? null
          : {
              lamports: account.lamports.toString(),
              data: base64Decoder.decode(account.data),
              owner: account.owner,
              executable: false,
            };
    }
    this.touched.clear();
    this.store.commit({ accounts: changed, meta: this.meta, transaction });
  }

  /** Stops: the open block closes, and the journal is folded into one state file for the next start. */
  close(): void {
    if (this.closed) return;
    const closedBlock = this.clock.stop();
    if (closedBlock || this.touched.size > 0) this.save();
    this.closed = true;
    this.store.compact();
  }
}
