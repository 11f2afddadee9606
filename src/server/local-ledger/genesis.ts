/**
 * What the local ledger holds from its first start: the AELO mint, a treasury holding most of the
 * supply (and the mint authority), the shop's receiving wallet with its AELO account, a funded
 * demo shopper, and about 60 holders with varied balances for the rewards programme (one owned by
 * a program-derived address, one standing for the liquidity pool). Keys are kept in
 * DATA_DIR/local-ledger/keys.json as Solana CLI-style 64-byte keys; holders' keys are not kept
 * (nobody signs for them here).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { address, getProgramDerivedAddress, type Address, type KeyPairSigner } from '@solana/kit';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import {
  AccountState,
  findAssociatedTokenPda,
  getMintEncoder,
  getTokenEncoder,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import type { StoredAccount } from './accounts';
import type { LocalLedger } from './ledger';
import { keyFileBytes, signerFromSeed } from './ledger-store';

export const AELO_DECIMALS = 6;
const LAMPORTS_PER_SOL = 1_000_000_000n;
const AELO = 10n ** BigInt(AELO_DECIMALS);
/** A made-up AMM program whose vault authority stands for the AELO/SOL liquidity pool. */
const LOCAL_AMM_PROGRAM = address('8JHYXqxiDUQuQZHprHLR8d4NXcd2U6smQ7ZqZt98om89');
const HOLDERS = 60;

/** The local ledger's named accounts (public addresses, plus the keys the shop signs with). */
export interface LocalChainSetup {
  mint: Address;
  decimals: number;
  treasury: KeyPairSigner;
  shopWallet: Address;
  /** The shop wallet's key: signs crypto refunds back to the paying wallet. */
  shopSigner: KeyPairSigner;
  demoShopper: KeyPairSigner;
  /** The demo shopper's 64-byte key, for the local demo wallet (local mode only). */
  demoShopperKey: number[];
  /** The owner of the token account standing for the liquidity pool (a PDA). */
  liquidityPoolOwner: Address;
  /** A holder owned by a program-derived address (excluded from the top 50). */
  programOwnedHolder: Address;
}

interface KeyFile {
  mint: number[];
  treasury: number[];
  shopWallet: number[];
  demoShopper: number[];
}

function seed(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(32));
}

async function signerFromKey(key: number[]): Promise<KeyPairSigner> {
  return signerFromSeed(Uint8Array.from(key.slice(0, 32)));
}

async function loadKeys(file: string): Promise<KeyFile> {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as KeyFile;
  const entries = await Promise.all(
    (['mint', 'treasury', 'shopWallet', 'demoShopper'] as const).map(async (name) => {
      const s = seed();
      return [name, keyFileBytes(s, await signerFromSeed(s))] as const;
    }),
  );
  const keys = Object.fromEntries(entries) as unknown as KeyFile;
  writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return keys;
}

/**
 * The named accounts of the ledger kept in `dir` (its keys.json, made on first use). Read by the
 * ledger's own thread, which writes the genesis with them, and by the server's request thread.
 */
export async function readLocalChainSetup(dir: string): Promise<LocalChainSetup> {
  const keys = await loadKeys(path.join(dir, 'keys.json'));
  const [mintSigner, treasury, shopSigner, demoShopper] = await Promise.all([
    signerFromKey(keys.mint),
    signerFromKey(keys.treasury),
    signerFromKey(keys.shopWallet),
    signerFromKey(keys.demoShopper),
  ]);
  const mint = mintSigner.address;
  const [liquidityPoolOwner] = await getProgramDerivedAddress({
    programAddress: LOCAL_AMM_PROGRAM,
    seeds: ['amm authority', 'AELO-SOL'],
  });
  const [programOwnedHolder] = await getProgramDerivedAddress({
    programAddress: LOCAL_AMM_PROGRAM,
    seeds: ['staking vault'],
  });
  return {
    mint,
    decimals: AELO_DECIMALS,
    treasury,
    shopWallet: shopSigner.address,
    shopSigner,
    demoShopper,
    demoShopperKey: keys.demoShopper,
    liquidityPoolOwner,
    programOwnedHolder,
  };
}

/** What writes accounts: the ledger itself, or the request thread's client of the ledger worker. */
export interface AccountWriter {
  setAccount(account: StoredAccount): unknown;
  minimumBalanceForRentExemption(dataLength: number): bigint | Promise<bigint>;
}

/** Writes (or overwrites) `owner`'s associated token account of `mint` holding `amount`. */
export async function writeTokenAccount(
  ledger: AccountWriter,
  mint: Address,
  owner: Address,
  amount: bigint,
): Promise<void> {
  const [ata] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  await ledger.setAccount({
    address: ata,
    lamports: await ledger.minimumBalanceForRentExemption(165),
    owner: TOKEN_PROGRAM_ADDRESS,
    executable: false,
    data: Uint8Array.from(
      getTokenEncoder().encode({
        mint,
        owner,
        amount,
        delegate: null,
        state: AccountState.Initialized,
        isNative: null,
        delegatedAmount: 0n,
        closeAuthority: null,
      }),
    ),
  });
}

/** Writes every genesis account into a new ledger, and saves them. */
export async function writeGenesis(ledger: LocalLedger, setup: LocalChainSetup): Promise<void> {
  const wallet = (owner: Address, sol: bigint) =>
    ledger.setAccount({
      address: owner,
      lamports: sol,
      data: new Uint8Array(),
      owner: SYSTEM_PROGRAM_ADDRESS,
      executable: false,
    });

  let supply = 0n;
  const tokenAccount = async (owner: Address, amount: bigint) => {
    supply += amount;
    await writeTokenAccount(ledger, setup.mint, owner, amount);
  };

  wallet(setup.treasury.address, 1_000n * LAMPORTS_PER_SOL);
  wallet(setup.shopWallet, 1n * LAMPORTS_PER_SOL);
  wallet(setup.demoShopper.address, 100n * LAMPORTS_PER_SOL);
  await tokenAccount(setup.treasury.address, 400_000_000n * AELO);
  await tokenAccount(setup.shopWallet, 0n);
  // About 2,100 USD at the local price: enough to pay a few orders in AELO.
  await tokenAccount(setup.demoShopper.address, 5_000_000n * AELO);
  await tokenAccount(setup.liquidityPoolOwner, 150_000_000n * AELO);
  await tokenAccount(setup.programOwnedHolder, 20_000_000n * AELO);
  for (let i = 0; i < HOLDERS; i++) {
    const holder = (await signerFromSeed(seed())).address;
    wallet(holder, LAMPORTS_PER_SOL / 20n);
    // From about 5 million down to a few hundred AELO, with some spread between neighbours.
    const base = 5_000_000n / BigInt((i + 1) * (i + 1));
    const spread = BigInt(Math.floor(Math.random() * 900)) + 100n;
    await tokenAccount(holder, (base + spread) * AELO);
  }

  ledger.setAccount({
    address: setup.mint,
    lamports: ledger.minimumBalanceForRentExemption(82),
    owner: TOKEN_PROGRAM_ADDRESS,
    executable: false,
    data: Uint8Array.from(
      getMintEncoder().encode({
        mintAuthority: setup.treasury.address,
        supply,
        decimals: AELO_DECIMALS,
        isInitialized: true,
        freezeAuthority: null,
      }),
    ),
  });
  ledger.save();
}
