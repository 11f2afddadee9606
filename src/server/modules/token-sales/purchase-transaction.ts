import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createNoopSigner,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type KeyPairSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token';

/**
 * The one transaction of a token purchase, as a Solana Pay transaction request answers it: the
 * buyer pays the SOL to the shop's wallet (the transfer names the purchase's reference), gets its
 * token account if it has none, and the treasury sends it the AELO. The buyer pays the fees and
 * signs last; the treasury signs here, so the SOL and the AELO move together or not at all.
 */
export interface PurchaseTransactionInput {
  buyer: Address;
  shopWallet: Address;
  treasury: KeyPairSigner;
  mint: Address;
  decimals: number;
  tokenProgram: Address;
  lamports: bigint;
  tokenAmount: bigint;
  reference: Address;
  blockhash: { blockhash: Blockhash; lastValidBlockHeight: bigint };
}

export async function buildPurchaseTransaction(input: PurchaseTransactionInput): Promise<string> {
  const buyer = createNoopSigner(input.buyer);
  const [[buyerTokenAccount], [treasuryTokenAccount]] = await Promise.all([
    findAssociatedTokenPda({ owner: input.buyer, mint: input.mint, tokenProgram: input.tokenProgram }),
    findAssociatedTokenPda({
      owner: input.treasury.address,
      mint: input.mint,
      tokenProgram: input.tokenProgram,
    }),
  ]);
  const payment = getTransferSolInstruction({
    source: buyer,
    destination: input.shopWallet,
    amount: input.lamports,
  });
  const instructions = [
    { ...payment, accounts: [...payment.accounts, { address: input.reference, role: AccountRole.READONLY }] },
    getCreateAssociatedTokenIdempotentInstruction({
      payer: buyer,
      ata: buyerTokenAccount,
      owner: input.buyer,
      mint: input.mint,
      tokenProgram: input.tokenProgram,
    }),
    getTransferCheckedInstruction(
      {
        source: treasuryTokenAccount,
        mint: input.mint,
        destination: buyerTokenAccount,
        authority: input.treasury,
        amount: input.tokenAmount,
        decimals: input.decimals,
      },
      { programAddress: input.tokenProgram },
    ),
  ];
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayerSigner(buyer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(input.blockhash, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  // The buyer's signer signs nothing here: its slot stays empty for the wallet.
  const signed = await partiallySignTransactionMessageWithSigners(message);
  return getBase64EncodedWireTransaction(signed);
}

/** The associated token account `owner` holds `mint` in. */
export async function tokenAccountOf(owner: string, mint: Address, tokenProgram: Address): Promise<Address> {
  const [found] = await findAssociatedTokenPda({ owner: address(owner), mint, tokenProgram });
  return found;
}
