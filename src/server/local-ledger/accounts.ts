/**
 * Accounts as the JSON-RPC shows them: `base64` and `base58` data, and `jsonParsed` for SPL token
 * mints and token accounts (the shape wallets and `@solana/web3.js` read), plus token balances.
 */
import { getBase58Decoder, type Address } from '@solana/kit';
import { AccountState, getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { TOKEN_2022_PROGRAM_ADDRESS } from '@solana-program/token-2022';

const TOKEN_PROGRAMS = new Set<string>([TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS]);
const MINT_SIZE = 82;
const TOKEN_ACCOUNT_SIZE = 165;
/** What a node answers as rentEpoch for a rent-exempt account (u64::MAX). */
export const RENT_EPOCH_EXEMPT = 18446744073709551615n;

export interface StoredAccount {
  address: Address;
  lamports: bigint;
  data: Uint8Array;
  owner: Address;
  executable: boolean;
}

export interface TokenAccountInfo {
  mint: Address;
  owner: Address;
  amount: bigint;
  state: number;
  isNative: boolean;
  delegate: Address | null;
  delegatedAmount: bigint;
  closeAuthority: Address | null;
}

export function isTokenProgram(owner: string): boolean {
  return TOKEN_PROGRAMS.has(owner);
}

/** The token account fields, or null when `account` is not an initialised SPL token account. */
export function decodeTokenAccount(account: StoredAccount): TokenAccountInfo | null {
  if (!isTokenProgram(account.owner) || account.data.length < TOKEN_ACCOUNT_SIZE) return null;
  if (account.data.length > TOKEN_ACCOUNT_SIZE && account.data[TOKEN_ACCOUNT_SIZE] !== 2) return null;
  try {
    const token = getTokenDecoder().decode(account.data.subarray(0, TOKEN_ACCOUNT_SIZE));
    if (token.state === AccountState.Uninitialized) return null;
    return {
      mint: token.mint,
      owner: token.owner,
      amount: token.amount,
      state: token.state,
      isNative: token.isNative.__option === 'Some',
      delegate: token.delegate.__option === 'Some' ? token.delegate.value : null,
      delegatedAmount: token.delegatedAmount,
      closeAuthority: token.closeAuthority.__option === 'Some' ? token.closeAuthority.value : null,
    };
  } catch {
    return null;
  }
}

export interface MintInfo {
  decimals: number;
  supply: bigint;
  mintAuthority: Address | null;
  freezeAuthority: Address | null;
  isInitialized: boolean;
}

export function decodeMint(account: StoredAccount): MintInfo | null {
  if (!isTokenProgram(account.owner) || account.data.length < MINT_SIZE) return null;
  if (account.data.length === TOKEN_ACCOUNT_SIZE) return null;
  try {
    const mint = getMintDecoder().decode(account.data.subarray(0, MINT_SIZE));
    if (!mint.isInitialized) return null;
    return {
      decimals: mint.decimals,
      supply: mint.supply,
      mintAuthority: mint.mintAuthority.__option === 'Some' ? mint.mintAuthority.value : null,
      freezeAuthority: mint.freezeAuthority.__option === 'Some' ? mint.freezeAuthority.value : null,
      isInitialized: mint.isInitialized,
    };
  } catch {
    return null;
  }
}

/** `uiTokenAmount` as the RPC writes it (amount as a decimal string, uiAmount a number). */
export function uiTokenAmount(amount: bigint, decimals: number) {
  const text = amount.toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, text.length - decimals);
  const fraction = decimals ? text.slice(text.length - decimals).replace(/0+$/, '') : '';
  const uiAmountString = fraction ? `${whole}.${fraction}` : whole;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

const TOKEN_STATES = ['uninitialized', 'initialized', 'frozen'] as const;

export type AccountEncoding = 'base64' | 'base58' | 'jsonParsed' | 'base64+zstd';

/**
 * An account in the RPC's `getAccountInfo` shape. `mintOf` reads a mint (for a token account's
 * decimals). jsonParsed falls back to base64 for data no parser knows, as a node does.
 */
export function encodeAccount(
  account: StoredAccount,
  encoding: AccountEncoding,
  mintOf: (mint: Address) => MintInfo | null,
  dataSlice?: { offset: number; length: number },
) {
  const base = {
    executable: account.executable,
    lamports: account.lamports,
    owner: account.owner,
    rentEpoch: RENT_EPOCH_EXEMPT,
    space: account.data.length,
  };
  if (encoding === 'jsonParsed') {
    const token = decodeTokenAccount(account);
    if (token) {
      const mint = mintOf(token.mint);
      const info: Record<string, unknown> = {
        isNative: token.isNative,
        mint: token.mint,
        owner: token.owner,
        state: TOKEN_STATES[token.state] ?? 'initialized',
        tokenAmount: uiTokenAmount(token.amount, mint?.decimals ?? 0),
      };
      if (token.delegate) {
        info.delegate = token.delegate;
        info.delegatedAmount = uiTokenAmount(token.delegatedAmount, mint?.decimals ?? 0);
      }
      if (token.closeAuthority) info.closeAuthority = token.closeAuthority;
      return {
        ...base,
        data: { program: programName(account.owner), parsed: { type: 'account', info }, space: base.space },
      };
    }
    const mint = decodeMint(account);
    if (mint) {
      const info = {
        decimals: mint.decimals,
        freezeAuthority: mint.freezeAuthority,
        isInitialized: mint.isInitialized,
        mintAuthority: mint.mintAuthority,
        supply: mint.supply.toString(),
      };
      return {
        ...base,
        data: { program: programName(account.owner), parsed: { type: 'mint', info }, space: base.space },
      };
    }
  }
  const bytes = dataSlice
    ? account.data.subarray(dataSlice.offset, dataSlice.offset + dataSlice.length)
    : account.data;
  if (encoding === 'base58') return { ...base, data: [getBase58Decoder().decode(bytes), 'base58'] };
  const base64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return { ...base, data: [base64, 'base64'] };
}

function programName(owner: string): string {
  return owner === TOKEN_2022_PROGRAM_ADDRESS ? 'spl-token-2022' : 'spl-token';
}
