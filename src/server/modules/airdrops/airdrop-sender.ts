import {
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  signature as toSignature,
  type Base64EncodedWireTransaction,
  type KeyPairSigner,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getTransferSolInstruction } from '@solana-program/system';
import type { PlannedTransfer } from './airdrop-runs.repository';

/**
 * The SOL transfers of an airdrop, several per transaction, signed by the treasury. A batch's
 * signature is known before it is sent (the fee payer's signature), so the caller records it
 * first; whether it landed is then a question the chain answers, after any crash or RPC error.
 */

export interface SignedBatch {
  signature: string;
  wire: string;
  lastValidBlockHeight: bigint;
}

export async function signBatch(
  rpc: Rpc<SolanaRpcApi>,
  treasury: KeyPairSigner,
  transfers: readonly PlannedTransfer[],
  priorityFeeMicroLamports: number,
): Promise<SignedBatch> {
  const { value: blockhash } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const instructions = [
    ...(priorityFeeMicroLamports > 0
      ? [getSetComputeUnitPriceInstruction({ microLamports: BigInt(priorityFeeMicroLamports) })]
      : []),
    ...transfers.map((t) =>
      getTransferSolInstruction({
        source: treasury,
        destination: address(t.wallet),
        amount: lamports(t.lamports),
      }),
    ),
  ];
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(treasury, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  return {
    signature: getSignatureFromTransaction(signed),
    wire: getBase64EncodedWireTransaction(signed),
    lastValidBlockHeight: blockhash.lastValidBlockHeight,
  };
}

/** Sends the recorded bytes; an error is not an answer (the transaction may still have landed). */
export async function sendBatch(rpc: Rpc<SolanaRpcApi>, wire: string): Promise<Error | null> {
  try {
    await rpc
      .sendTransaction(wire as Base64EncodedWireTransaction, {
        encoding: 'base64',
        skipPreflight: true,
        maxRetries: 0n,
      })
      .send();
    return null;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

export type BatchOutcome = 'landed' | 'failed' | 'pending' | 'expired';

/**
 * What became of a sent batch: landed (confirmed without error), failed (landed with an error, so
 * nothing moved), expired (not found and its blockhash can no longer land), or still pending.
 */
export async function batchOutcome(
  rpc: Rpc<SolanaRpcApi>,
  signature: string,
  lastValidBlockHeight: bigint,
): Promise<BatchOutcome> {
  const { value } = await rpc
    .getSignatureStatuses([toSignature(signature)], { searchTransactionHistory: true })
    .send();
  const status = value[0];
  if (status && (status.confirmationStatus === 'confirmed' || status.confirmationStatus === 'finalized')) {
    return status.err ? 'failed' : 'landed';
  }
  if (status) return 'pending';
  const height = await rpc.getBlockHeight({ commitment: 'confirmed' }).send();
  return height > lastValidBlockHeight ? 'expired' : 'pending';
}

/** Polls a batch until it lands, fails or expires, or `timeoutMs` passes (then 'pending'). */
export async function awaitBatch(
  rpc: Rpc<SolanaRpcApi>,
  signature: string,
  lastValidBlockHeight: bigint,
  options: { timeoutMs: number; pollMs: number },
): Promise<BatchOutcome> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const outcome = await batchOutcome(rpc, signature, lastValidBlockHeight);
    if (outcome !== 'pending' || Date.now() >= deadline) return outcome;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
}
