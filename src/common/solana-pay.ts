/**
 * Solana Pay links (https://docs.solanapay.com/spec), written here rather than by a library's
 * encodeURL: the amount is written from integer base units, so it never reads like
 * "716844.3199999999". A transfer request names recipient, amount, SPL token, reference, label and
 * message; a transaction request is an https link a wallet POSTs its account to.
 */
import { baseUnitsToDecimal } from './crypto-amounts';

export interface TransferRequest {
  recipient: string;
  /** In the coin's base units (lamports, or the SPL token's smallest unit). */
  amount: bigint | string;
  decimals: number;
  /** The SPL token's mint; null or absent for SOL. */
  splToken?: string | null;
  reference: string;
  label: string;
  message: string;
}

export function encodeTransferRequestUrl(request: TransferRequest): string {
  const params = new URLSearchParams();
  params.set('amount', baseUnitsToDecimal(request.amount, request.decimals));
  if (request.splToken) params.set('spl-token', request.splToken);
  params.set('reference', request.reference);
  params.set('label', request.label);
  params.set('message', request.message);
  // URLSearchParams writes spaces as '+'; Solana Pay wallets read percent-encoding.
  return `solana:${request.recipient}?${params.toString().replace(/\+/g, '%20')}`;
}

/** `solana:<percent-encoded https link>`: the wallet GETs the label and POSTs its account to the link. */
export function encodeTransactionRequestUrl(link: string): string {
  return `solana:${encodeURIComponent(link)}`;
}
