import { readFileSync } from 'node:fs';
import {
  address,
  createKeyPairSignerFromBytes,
  createSolanaRpcFromTransport,
  getBase58Encoder,
  isAddress,
  type Address,
  type KeyPairSigner,
  type Rpc,
  type RpcTransport,
  type SolanaRpcApi,
} from '@solana/kit';
import { fetchMint, findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { TOKEN_2022_PROGRAM_ADDRESS } from '@solana-program/token-2022';
import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types';
import { createHttpTransport } from '@solana/rpc-transport-http';
import { z } from 'zod';
import {
  WALLET_CHAINS,
  type Cluster,
  type DemoWalletResponse,
  type ExplorerTransaction,
  type TokenInfo,
} from '#common/schemas/chain';
import { TOKEN_SYMBOL } from '#common/token';
import type { Config } from '#server/config';
import type { LocalChainHost } from '#server/local-ledger/local-chain';
import { AppError } from '#server/lib/app-error';

/**
 * The chain the shop is paid on, one owner for its addresses: the local ledger's accounts in local
 * mode, TOKEN_MINT / SHOP_WALLET / TREASURY_SECRET_KEY on a real cluster. Everything else reaches
 * the chain through `rpc` (@solana/kit), in process on the local ledger, over HTTP otherwise.
 */

export interface ChainAccounts {
  mint: Address;
  decimals: number;
  /** The token program that owns the mint (Token or Token-2022). */
  tokenProgram: Address;
  shopWallet: Address;
  /** The shop's token account for the mint (where AELO payments arrive). */
  shopTokenAccount: Address;
  /** Signs the AELO a Buy Token sends; null when no treasury key is configured. */
  treasury: KeyPairSigner | null;
  /**
   * The shop wallet's key (signs crypto refunds back to the paying wallet): the local ledger's, or
   * SHOP_WALLET_SECRET_KEY / SHOP_WALLET_KEY_FILE; null when none is configured (an admin signs).
   */
  shopSigner: KeyPairSigner | null;
}

export interface ChainService {
  cluster: Cluster;
  rpc: Rpc<SolanaRpcApi>;
  /** The JSON-RPC transport under `rpc`, for answers too large for kit's transformers (holder snapshots). */
  transport: RpcTransport;
  /** The named accounts; null when crypto payments are not configured (real cluster without them). */
  accounts(): Promise<ChainAccounts | null>;
  /** The same, or 503 NOT_CONFIGURED. */
  requireAccounts(): Promise<ChainAccounts>;
  tokenInfo(): Promise<TokenInfo>;
  /** The local demo shopper's key for the page's demo wallet; null off the local ledger. */
  demoWallet(publicUrl: string): Promise<DemoWalletResponse | null>;
  /** The local explorer's view of a transaction; null when unknown, or off the local ledger. */
  explorerTransaction(signature: string): Promise<ExplorerTransaction | null>;
  /** Calls `listener` with the account keys of every transaction the local ledger processes. */
  onTransaction(listener: (accountKeys: readonly string[]) => void): () => void;
}

/**
 * A wallet account named by a client (a Solana Pay transaction request's `account`): a base58
 * text the schema let through may still not be 32 bytes; that is the client's error, not a 500.
 */
export function accountAddress(text: string): Address {
  if (!isAddress(text)) {
    throw new AppError('VALIDATION_FAILED', 'account: Invalid Solana address', {
      account: 'Invalid Solana address',
    });
  }
  return address(text);
}

function localTransport(host: LocalChainHost): RpcTransport {
  const transport = async ({ payload }: { payload: unknown }) => {
    const chain = await host.get();
    const body = JSON.stringify(payload, (_key, value: unknown) =>
      typeof value === 'bigint' ? Number(value) : value,
    );
    return JSON.parse(await chain.handle(body)) as unknown;
  };
  return transport as RpcTransport;
}

/**
 * A cluster's JSON-RPC over HTTP, as kit's default transport makes it (u64 numbers kept exact),
 * except for getProgramAccounts: a holder snapshot's answer lists every token account of the mint
 * (100,000 at scale, about 28 MB), which kit's bigint-preserving parser takes seconds over and
 * JSON.parse a tenth of that (bench/holder-snapshot.ts). Its numbers are lamports, sizes and rent
 * epochs, which the snapshot does not read.
 */
function httpTransport(url: string): RpcTransport {
  const isProgramAccounts = (payload: unknown) =>
    (payload as { method?: unknown } | null)?.method === 'getProgramAccounts';
  return createHttpTransport({
    url,
    toJson: stringifyJsonWithBigInts,
    fromJson: (raw, payload) =>
      isProgramAccounts(payload) ? (JSON.parse(raw) as unknown) : parseJsonWithBigInts(raw),
  });
}

/** A 64-byte key as a Solana CLI JSON array, or its base58. */
async function signerFromSecret(secret: string): Promise<KeyPairSigner> {
  const trimmed = secret.trim();
  const bytes = trimmed.startsWith('[')
    ? Uint8Array.from(z.array(z.number().int().min(0).max(255)).length(64).parse(JSON.parse(trimmed)))
    : Uint8Array.from(getBase58Encoder().encode(trimmed));
  return createKeyPairSignerFromBytes(bytes);
}

/** The configured shop wallet key, refused when it is not SHOP_WALLET's (a refund would come from elsewhere). */
async function shopSignerFrom(secret: string, shopWallet: Address): Promise<KeyPairSigner> {
  const signer = await signerFromSecret(secret);
  if (signer.address !== shopWallet) {
    throw new Error('SHOP_WALLET_SECRET_KEY / SHOP_WALLET_KEY_FILE is not the key of SHOP_WALLET');
  }
  return signer;
}

/**
 * The mint's decimals and its token program, read once from the chain: the account's owner is
 * the program (classic Token or Token-2022) every instruction on the mint and every token account
 * of it must go through. The base mint layout (decimals included) is the same under both.
 */
async function readMint(
  rpc: Rpc<SolanaRpcApi>,
  mint: Address,
): Promise<{ decimals: number; tokenProgram: Address }> {
  const account = await fetchMint(rpc, mint, { commitment: 'confirmed' });
  const owner = account.programAddress;
  if (owner !== TOKEN_PROGRAM_ADDRESS && owner !== TOKEN_2022_PROGRAM_ADDRESS) {
    throw new Error(`${mint} is not a mint of the Token or Token-2022 program (owner ${owner})`);
  }
  return { decimals: account.data.decimals, tokenProgram: owner };
}

export function createChainService(deps: {
  config: Config;
  localChain: LocalChainHost | undefined;
}): ChainService {
  const { config, localChain } = deps;
  const cluster = config.solana.cluster;
  const transport = localChain ? localTransport(localChain) : httpTransport(config.solana.rpcUrl ?? '');
  const rpc: Rpc<SolanaRpcApi> = createSolanaRpcFromTransport(transport);

  let accounts: Promise<ChainAccounts | null> | undefined;
  async function loadAccounts(): Promise<ChainAccounts | null> {
    if (localChain) {
      const { setup } = await localChain.get();
      const mint = await readMint(rpc, setup.mint);
      const [shopTokenAccount] = await findAssociatedTokenPda({
        owner: setup.shopWallet,
        mint: setup.mint,
        tokenProgram: mint.tokenProgram,
      });
      return {
        mint: setup.mint,
        decimals: mint.decimals,
        tokenProgram: mint.tokenProgram,
        shopWallet: setup.shopWallet,
        shopTokenAccount,
        treasury: setup.treasury,
        shopSigner: setup.shopSigner,
      };
    }
    const { tokenMint, shopWallet, treasurySecretKey, treasuryKeyFile } = config.solana;
    const treasuryKey = treasurySecretKey ?? (treasuryKeyFile ? readFileSync(treasuryKeyFile, 'utf8') : null);
    const { shopWalletSecretKey, shopWalletKeyFile } = config.solana;
    const shopKey =
      shopWalletSecretKey ?? (shopWalletKeyFile ? readFileSync(shopWalletKeyFile, 'utf8') : null);
    // No cluster (the demo ledger off, no SOLANA_RPC_URL) or no named accounts: crypto is not configured.
    if (!config.solana.rpcUrl || !tokenMint || !shopWallet) return null;
    const mint = await readMint(rpc, address(tokenMint));
    const [shopTokenAccount] = await findAssociatedTokenPda({
      owner: address(shopWallet),
      mint: address(tokenMint),
      tokenProgram: mint.tokenProgram,
    });
    return {
      mint: address(tokenMint),
      decimals: mint.decimals,
      tokenProgram: mint.tokenProgram,
      shopWallet: address(shopWallet),
      shopTokenAccount,
      treasury: treasuryKey ? await signerFromSecret(treasuryKey) : null,
      shopSigner: shopKey ? await shopSignerFrom(shopKey, address(shopWallet)) : null,
    };
  }
  const getAccounts = (): Promise<ChainAccounts | null> => {
    accounts ??= loadAccounts().catch((err: unknown) => {
      accounts = undefined; // a cluster that was unreachable is asked again next time
      throw err;
    });
    return accounts;
  };

  return {
    cluster,
    rpc,
    transport,
    accounts: getAccounts,
    async requireAccounts() {
      let found: ChainAccounts | null;
      try {
        found = await getAccounts();
      } catch {
        throw new AppError('UNAVAILABLE', 'The Solana network cannot be reached right now');
      }
      if (!found) throw new AppError('NOT_CONFIGURED', 'Crypto payments are not configured yet');
      return found;
    },
    async tokenInfo() {
      const found = await getAccounts().catch(() => null);
      return {
        symbol: TOKEN_SYMBOL,
        mint: found?.mint ?? config.solana.tokenMint,
        decimals: found?.decimals ?? 6,
        cluster,
        walletChain: WALLET_CHAINS[cluster],
        paymentsEnabled: found !== null,
        salesEnabled: found?.treasury != null,
        demoWallet: localChain !== undefined,
      };
    },
    async demoWallet(publicUrl) {
      if (!localChain) return null;
      const { setup } = await localChain.get();
      return {
        address: setup.demoShopper.address,
        secretKey: setup.demoShopperKey,
        rpcUrl: `${publicUrl}/local-chain`,
      };
    },
    async explorerTransaction(signature) {
      if (!localChain) return null;
      const { ledger } = await localChain.get();
      const record = await ledger.getTransaction(signature);
      if (!record) return null;
      const loaded = record.loadedAddresses;
      const staticCount = record.accountKeys.length - loaded.writable.length - loaded.readonly.length;
      const header = decodeHeader(record.wire);
      // The message header orders keys: writable signers, read-only signers, writable, read-only;
      // then the lookup tables' writable and read-only keys.
      const isWritable = (i: number): boolean => {
        if (i >= staticCount) return i < staticCount + loaded.writable.length;
        if (i < header.signers) return i < header.signers - header.readonlySigned;
        return i < staticCount - header.readonlyUnsigned;
      };
      return {
        signature: record.signature,
        slot: record.slot,
        blockTime: record.blockTime,
        status: record.err ? 'failed' : 'success',
        error: record.err ? JSON.stringify(record.err) : null,
        feeLamports: record.fee,
        version: record.version,
        accounts: record.accountKeys.map((key, i) => ({
          address: key,
          signer: i < header.signers,
          writable: isWritable(i),
          preLamports: record.preBalances[i] ?? '0',
          postLamports: record.postBalances[i] ?? '0',
        })),
        tokenBalances: tokenRows(record),
        logs: record.logs,
      };
    },
    onTransaction(listener) {
      if (!localChain) return () => undefined;
      let stop: (() => void) | undefined;
      let stopped = false;
      // A ledger that cannot start (or has stopped with the server) announces nothing.
      void localChain.get().then(
        (chain) => {
          if (stopped) return;
          stop = chain.ledger.onTransaction((record) => listener(record.accountKeys));
        },
        () => undefined,
      );
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
}

/** The message header of a wire transaction: signers, read-only signed, read-only unsigned. */
function decodeHeader(wireBase64: string): {
  signers: number;
  readonlySigned: number;
  readonlyUnsigned: number;
} {
  const bytes = Buffer.from(wireBase64, 'base64');
  // compact-u16 signature count, then the signatures, then (v0: a version byte) the header.
  let offset = 0;
  let count = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[offset++] ?? 0;
    count |= (byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) break;
    shift += 7;
  }
  offset += count * 64;
  if (((bytes[offset] ?? 0) & 0x80) !== 0) offset += 1;
  return {
    signers: bytes[offset] ?? 0,
    readonlySigned: bytes[offset + 1] ?? 0,
    readonlyUnsigned: bytes[offset + 2] ?? 0,
  };
}

function tokenRows(record: {
  accountKeys: string[];
  preTokenBalances: Array<{
    accountIndex: number;
    mint: string;
    owner: string;
    uiTokenAmount: { amount: string; decimals: number };
  }>;
  postTokenBalances: Array<{
    accountIndex: number;
    mint: string;
    owner: string;
    uiTokenAmount: { amount: string; decimals: number };
  }>;
}): ExplorerTransaction['tokenBalances'] {
  const indexes = [
    ...new Set([...record.preTokenBalances, ...record.postTokenBalances].map((b) => b.accountIndex)),
  ];
  return indexes.map((index) => {
    const pre = record.preTokenBalances.find((b) => b.accountIndex === index);
    const post = record.postTokenBalances.find((b) => b.accountIndex === index);
    const any = (post ?? pre)!;
    return {
      account: record.accountKeys[index] ?? '',
      owner: any.owner,
      mint: any.mint,
      decimals: any.uiTokenAmount.decimals,
      pre: pre?.uiTokenAmount.amount ?? '0',
      post: post?.uiTokenAmount.amount ?? '0',
    };
  });
}
