/**
 * The local ledger's chain position: slots and block heights, the window of valid blockhashes,
 * and the pace at which blocks close. litesvm's own blockhash check is off (it accepts only the
 * very latest blockhash, where a node accepts any of the last 150 blocks); this clock keeps that
 * window itself.
 *
 * A block closes after each transaction, at a bounded pace: up to BLOCK_BURST blocks at once, then
 * one per SLOT_MS (a cluster's slot time); transactions that arrive faster share a block. However
 * many clients send or use the faucet, a blockhash stays valid for at least
 * BLOCK_BURST + (150 - BLOCK_BURST) × 400 ms = 48 s, and an idle ledger keeps it valid.
 */
import { getBase58Decoder } from '@solana/kit';
import type { LiteSVM } from 'litesvm';
import { KEPT_BLOCKHASHES, type LedgerMeta } from './ledger-store';

/** A node accepts a blockhash for this many blocks after it was produced. */
export const BLOCKHASH_VALIDITY = 150;
/** Blocks the ledger may close at once (one per transaction) before they come at the slot pace. */
export const BLOCK_BURST = 30;
/** The slot pace once the burst is spent: a cluster's 400 ms. */
export const SLOT_MS = 400;

const base58Decoder = getBase58Decoder();
/** A random 32-byte hash in base58 (blockhashes, the genesis hash). */
export const randomHash = () => base58Decoder.decode(crypto.getRandomValues(new Uint8Array(32)));

export class BlockClock {
  /** Blocks that may close now (refilled one per SLOT_MS, at most BLOCK_BURST). */
  private blockTokens = BLOCK_BURST;
  private blockTokensAt = Date.now();
  /** The current slot holds a transaction: its block is still to close. */
  private blockOpen = false;
  private pendingBlock: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  /**
   * Keeps the position in `meta` (saved with it) and the VM's slot and clock in step;
   * `onLateBlock` runs when a block the pace held back closes on its timer.
   */
  constructor(
    private readonly svm: LiteSVM,
    private readonly meta: LedgerMeta,
    private readonly onLateBlock: () => void,
  ) {}

  get slot(): number {
    return this.meta.slot;
  }

  get blockHeight(): number {
    return this.meta.slot;
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    const latest = this.meta.blockhashes[this.meta.blockhashes.length - 1]!;
    return { blockhash: latest.hash, lastValidBlockHeight: latest.height + BLOCKHASH_VALIDITY };
  }

  isBlockhashValid(hash: string): boolean {
    const found = this.meta.blockhashes.find((b) => b.hash === hash);
    return found !== undefined && this.blockHeight <= found.height + BLOCKHASH_VALIDITY;
  }

  /** Sets the VM to the saved slot (at start). */
  resume(): void {
    this.svm.warpToSlot(BigInt(this.meta.slot));
  }

  /** A new block: the next slot, a new blockhash, the clock at the wall time. */
  advance(): void {
    this.meta.slot += 1;
    this.svm.warpToSlot(BigInt(this.meta.slot));
    const clock = this.svm.getClock();
    clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000));
    this.svm.setClock(clock);
    // The ledger's own blockhashes (litesvm's check is off): random, so none repeats after a restart.
    this.meta.blockhashes.push({ hash: randomHash(), height: this.blockHeight });
    if (this.meta.blockhashes.length > KEPT_BLOCKHASHES) this.meta.blockhashes.shift();
    this.blockOpen = false;
  }

  /** A transaction landed in the current slot: its block closes as the pace allows. */
  afterTransaction(): void {
    this.blockOpen = true;
    this.closeBlock();
  }

  /** Stops the pace: a block still open closes now. Returns whether one did. */
  stop(): boolean {
    clearTimeout(this.pendingBlock);
    this.pendingBlock = undefined;
    const wasOpen = this.blockOpen;
    if (wasOpen) this.advance();
    this.stopped = true;
    return wasOpen;
  }

  /**
   * The open block closes now when the pace allows, else when it next does (a timer;
   * transactions until then land in the same block).
   */
  private closeBlock(): void {
    const now = Date.now();
    this.blockTokens = Math.min(BLOCK_BURST, this.blockTokens + (now - this.blockTokensAt) / SLOT_MS);
    this.blockTokensAt = now;
    if (this.blockTokens >= 1) {
      this.blockTokens -= 1;
      this.advance();
      return;
    }
    if (this.pendingBlock || this.stopped) return;
    this.pendingBlock = setTimeout(
      () => {
        this.pendingBlock = undefined;
        if (this.stopped || !this.blockOpen) return;
        this.closeBlock();
        if (!this.blockOpen) this.onLateBlock();
      },
      Math.ceil((1 - this.blockTokens) * SLOT_MS),
    );
    this.pendingBlock.unref?.();
  }
}
