import {
  address,
  createJsonRpcApi,
  createRpc,
  getBase58Decoder,
  getSolanaErrorFromJsonRpcError,
  isOffCurveAddress,
  type Address,
  type Rpc,
  type RpcTransport,
  type SolanaRpcApi,
} from '@solana/kit';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { TOKEN_2022_PROGRAM_ADDRESS } from '@solana-program/token-2022';
import bs58 from 'bs58';
import type { Holding } from '#common/rewards';

/**
 * Who holds the shop's token, read from the chain (docs/rewards.md, "Who is a holder"): every token
 * account of the mint under the mint's own program, Token or Token-2022 (getProgramAccounts with
 * the mint filter, only the owner and amount bytes), summed by owner and ranked by balance. Eligibility is
 * decided lazily, in rank order, because it costs a look at each owner's account: owners off the
 * ed25519 curve (program-derived addresses), executable or program-owned owners, and the
 * configured exclusion list (liquidity pools, treasury, shop wallet) are not holders for airdrops.
 */

/** Token account layout: mint 0..32, owner 32..64, amount 64..72 (the same under Token-2022). */
const OWNER_OFFSET = 32;
/** Token-2022 writes an account-type byte after the base layout: 2 = token account. */
const TOKEN_2022_ACCOUNT_TYPE_OFFSET = 165;

export interface RankedHolders {
  /** Distinct owners with a positive balance, before eligibility. */
  holderCount: number;
  /** Owners not on the exclusion list, largest first (ties by address, so the order is stable). */
  ranked: Holding[];
}

/** Sums token accounts by owner and ranks them; pure, so the bench measures it alone. */
export function rankHolders(
  accounts: Iterable<{ owner: string; amount: bigint }>,
  excluded: ReadonlySet<string>,
): RankedHolders {
  const byOwner = new Map<string, bigint>();
  for (const { owner, amount } of accounts) {
    if (amount === 0n) continue;
    byOwner.set(owner, (byOwner.get(owner) ?? 0n) + amount);
  }
  const ranked: Holding[] = [];
  for (const [owner, amount] of byOwner) if (!excluded.has(owner)) ranked.push({ owner, amount });
  ranked.sort((a, b) =>
    a.amount === b.amount ? (a.owner < b.owner ? -1 : 1) : a.amount > b.amount ? -1 : 1,
  );
  return { holderCount: byOwner.size, ranked };
}

/**
 * Decodes the owner-and-amount slice (40 bytes) of a token account. bs58 writes an address in a
 * third of the time of kit's general base58 codec, which counts at 100,000 holders (bench/).
 */
export function decodeOwnerAmount(slice: Uint8Array): { owner: string; amount: bigint } {
  const view = new DataView(slice.buffer, slice.byteOffset, slice.byteLength);
  return {
    owner: bs58.encode(slice.subarray(0, 32)),
    amount: view.getBigUint64(32, true),
  };
}

/** The one method the snapshot calls untransformed, with the node's answer as it is written. */
type ProgramAccountsApi = {
  getProgramAccounts(
    program: string,
    config: {
      encoding: 'base64';
      dataSlice: { offset: number; length: number };
      filters: Array<
        { dataSize: number } | { memcmp: { offset: number; bytes: string; encoding: 'base58' } }
      >;
    },
  ): Array<{ pubkey: string; account: { data: [string, 'base64'] } }>;
};

/**
 * Every token account of the mint, as owner and amount, under the mint's own program (a token
 * account always belongs to its mint's program; without `tokenProgram`, both are asked). The
 * answer lists every holder (100,000 at scale), so it is read through a plain JSON-RPC client
 * over the chain's transport: kit's Solana RPC would walk every value of it to turn numbers into
 * bigints, which takes longer than the node takes to answer, for numbers the snapshot never reads.
 */
export async function readTokenAccounts(
  transport: RpcTransport,
  mint: Address,
  tokenProgram?: Address,
): Promise<Array<{ owner: string; amount: bigint }>> {
  const api = createJsonRpcApi<ProgramAccountsApi>({
    // The node's `result`, or its error as kit's own Solana RPC would throw it.
    responseTransformer: (response) => {
      const { result, error } = response as {
        result?: unknown;
        error?: Parameters<typeof getSolanaErrorFromJsonRpcError>[0];
      };
      if (error) throw getSolanaErrorFromJsonRpcError(error);
      return result;
    },
  });
  const rpc = createRpc({ api, transport });
  const mintFilter = { memcmp: { offset: 0, bytes: mint as string, encoding: 'base58' as const } };
  const accountType = getBase58Decoder().decode(Uint8Array.of(2));
  const dataSlice = { offset: OWNER_OFFSET, length: 40 };
  const read = (program: Address) =>
    program === TOKEN_2022_PROGRAM_ADDRESS
      ? rpc
          .getProgramAccounts(TOKEN_2022_PROGRAM_ADDRESS, {
            encoding: 'base64',
            dataSlice,
            filters: [
              mintFilter,
              { memcmp: { offset: TOKEN_2022_ACCOUNT_TYPE_OFFSET, bytes: accountType, encoding: 'base58' } },
            ],
          })
          .send()
      : rpc
          .getProgramAccounts(TOKEN_PROGRAM_ADDRESS, {
            encoding: 'base64',
            dataSlice,
            filters: [{ dataSize: 165 }, mintFilter],
          })
          .send();
  const programs = tokenProgram ? [tokenProgram] : [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS];
  const lists = await Promise.all(programs.map(read));
  return lists.flat().map((a) => decodeOwnerAmount(Buffer.from(a.account.data[0], 'base64')));
}

/**
 * The owners among `owners` that may receive airdrops: on the curve (a wallet someone holds the
 * key of) and, on the chain, either no account yet or a plain system account (not executable, not
 * owned by a program).
 */
export async function eligibleOwners(
  rpc: Rpc<SolanaRpcApi>,
  owners: readonly string[],
): Promise<Set<string>> {
  const onCurve = owners.filter((o) => !isOffCurveAddress(address(o)));
  const eligible = new Set<string>();
  for (let i = 0; i < onCurve.length; i += 100) {
    const chunk = onCurve.slice(i, i + 100);
    const { value } = await rpc
      .getMultipleAccounts(
        chunk.map((o) => address(o)),
        { encoding: 'base64' },
      )
      .send();
    chunk.forEach((owner, j) => {
      const info = value[j];
      if (!info || (!info.executable && info.owner === SYSTEM_PROGRAM_ADDRESS)) eligible.add(owner);
    });
  }
  return eligible;
}

/** The first `n` eligible holders in rank order, checking owners a hundred at a time. */
export async function topEligible(
  rpc: Rpc<SolanaRpcApi>,
  ranked: readonly Holding[],
  n: number,
): Promise<Holding[]> {
  const top: Holding[] = [];
  for (let i = 0; i < ranked.length && top.length < n; i += 100) {
    const chunk = ranked.slice(i, i + 100);
    const ok = await eligibleOwners(
      rpc,
      chunk.map((h) => h.owner),
    );
    for (const h of chunk) if (ok.has(h.owner) && top.length < n) top.push(h);
  }
  return top;
}
