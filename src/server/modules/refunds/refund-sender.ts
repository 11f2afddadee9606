import {
  address,
  appendTransactionMessageInstructions,
  createAddressWithSeed,
  createNoopSigner,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  signature as toSignature,
  type Address,
  type Instruction,
  type Rpc,
  type SolanaRpcApi,
  type TransactionSigner,
} from '@solana/kit';
import {
  getCreateAccountWithSeedInstruction,
  getTransferSolInstruction,
  SYSTEM_PROGRAM_ADDRESS,
} from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import {
  getTransferCheckedInstruction as getTransferChecked2022Instruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from '@solana-program/token-2022';
import type { SignedBatch } from '../airdrops/airdrop-sender';

/**
 * The transaction of a crypto refund: the same coin back from the shop wallet to the paying
 * wallet. SOL is a system transfer; a token is a transferChecked from the shop's associated token
 * account to the payer's (created first, idempotently, paid by the shop wallet), under the mint's
 * own token program (Token or Token-2022, read from the mint account's owner).
 *
 * Signed by the shop's key, its signature is known before it is sent, so the worker records it
 * first (as airdrops do) and asks the chain afterwards. Without the key, the transaction is handed
 * to an admin's wallet (a Solana Pay transaction request) with one more instruction: it creates a
 * zero-byte account at an address derived from the shop wallet and the refund's id, which can exist
 * once only, so a second signed copy of the same refund fails on the chain instead of paying twice.
 */

export interface RefundTransferInput {
  /** The shop wallet (source, fee payer). */
  shopWallet: Address;
  /** The paying wallet (an owner, not a token account). */
  destination: Address;
  /** null: SOL. */
  mint: Address | null;
  amount: bigint;
}

/** A mint's program (the account's owner) and decimals (byte 44 of the base mint layout, both programs). */
async function mintFacts(
  rpc: Rpc<SolanaRpcApi>,
  mint: Address,
): Promise<{ tokenProgram: Address; decimals: number }> {
  const { value } = await rpc.getAccountInfo(mint, { encoding: 'base64', commitment: 'confirmed' }).send();
  if (!value) throw new Error(`mint ${mint} not found`);
  const data = Buffer.from(value.data[0], 'base64');
  const tokenProgram = value.owner;
  if (tokenProgram !== TOKEN_PROGRAM_ADDRESS && tokenProgram !== TOKEN_2022_PROGRAM_ADDRESS) {
    throw new Error(`mint ${mint} is not owned by a token program`);
  }
  return { tokenProgram, decimals: data[44] ?? 0 };
}

async function transferInstructions(
  rpc: Rpc<SolanaRpcApi>,
  shop: TransactionSigner,
  input: RefundTransferInput,
): Promise<Instruction[]> {
  if (!input.mint) {
    return [
      getTransferSolInstruction({ source: shop, destination: input.destination, amount: input.amount }),
    ];
  }
  const mint = input.mint;
  const { tokenProgram, decimals } = await mintFacts(rpc, mint);
  const [[source], [destination]] = await Promise.all([
    findAssociatedTokenPda({ owner: input.shopWallet, mint, tokenProgram }),
    findAssociatedTokenPda({ owner: input.destination, mint, tokenProgram }),
  ]);
  const transfer =
    tokenProgram === TOKEN_2022_PROGRAM_ADDRESS
      ? getTransferChecked2022Instruction({
          source,
          mint,
          destination,
          authority: shop,
          amount: input.amount,
          decimals,
        })
      : getTransferCheckedInstruction({
          source,
          mint,
          destination,
          authority: shop,
          amount: input.amount,
          decimals,
        });
  return [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: shop,
      ata: destination,
      owner: input.destination,
      mint,
      tokenProgram,
    }),
    transfer,
  ];
}

/** Signs the refund with the shop's key; the caller records the result before sending it. */
export async function signRefund(
  rpc: Rpc<SolanaRpcApi>,
  shop: TransactionSigner,
  input: RefundTransferInput,
): Promise<SignedBatch> {
  const instructions = await transferInstructions(rpc, shop, input);
  const { value: blockhash } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(shop, m),
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

/** The seed of a refund's once-only account: its id's 32 hex digits (the system program's limit). */
function guardSeed(refundId: string): string {
  return refundId.replace(/-/g, '').toLowerCase();
}

/** The once-only account an admin-signed refund creates (see above). */
export function refundGuardAddress(shopWallet: Address, refundId: string): Promise<Address> {
  return createAddressWithSeed({
    baseAddress: shopWallet,
    programAddress: SYSTEM_PROGRAM_ADDRESS,
    seed: guardSeed(refundId),
  });
}

/**
 * The refund as a transaction for the shop wallet to sign (a Solana Pay transaction request's
 * answer): fee payer and authority the shop wallet, nothing signed here.
 */
export async function unsignedRefund(
  rpc: Rpc<SolanaRpcApi>,
  refundId: string,
  input: RefundTransferInput,
): Promise<string> {
  const shop = createNoopSigner(input.shopWallet);
  const [instructions, guard, rent, { value: blockhash }] = await Promise.all([
    transferInstructions(rpc, shop, input),
    refundGuardAddress(input.shopWallet, refundId),
    rpc.getMinimumBalanceForRentExemption(0n).send(),
    rpc.getLatestBlockhash({ commitment: 'confirmed' }).send(),
  ]);
  const once = getCreateAccountWithSeedInstruction({
    payer: shop,
    newAccount: guard,
    base: input.shopWallet,
    seed: guardSeed(refundId),
    amount: rent,
    space: 0,
    programAddress: SYSTEM_PROGRAM_ADDRESS,
  });
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayerSigner(shop, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstructions([once, ...instructions], m),
  );
  const partly = await partiallySignTransactionMessageWithSigners(message);
  return getBase64EncodedWireTransaction(partly);
}

/**
 * The signature of an admin-signed refund that landed: its once-only account exists, and the
 * successful transaction that created it (fee payer: the shop wallet) is the refund. null: not yet.
 */
export async function findAdminSignedRefund(
  rpc: Rpc<SolanaRpcApi>,
  shopWallet: Address,
  refundId: string,
): Promise<string | null> {
  const guard = await refundGuardAddress(shopWallet, refundId);
  const { value: account } = await rpc.getAccountInfo(guard, { commitment: 'confirmed' }).send();
  if (!account) return null;
  const signatures = await rpc.getSignaturesForAddress(guard, { commitment: 'confirmed', limit: 20 }).send();
  for (const entry of [...signatures].reverse()) {
    if (entry.err) continue;
    const tx = await rpc
      .getTransaction(toSignature(entry.signature), {
        commitment: 'confirmed',
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    if (tx && !tx.meta?.err && tx.transaction.message.accountKeys[0] === shopWallet) return entry.signature;
  }
  return null;
}

/** The fee payer of a transaction (a payment's, when no transfer row names its payer). */
export async function feePayerOf(rpc: Rpc<SolanaRpcApi>, signature: string): Promise<string | null> {
  const tx = await rpc
    .getTransaction(toSignature(signature), {
      commitment: 'confirmed',
      encoding: 'json',
      maxSupportedTransactionVersion: 0,
    })
    .send();
  const key = tx?.transaction.message.accountKeys[0];
  return key ? address(key) : null;
}
