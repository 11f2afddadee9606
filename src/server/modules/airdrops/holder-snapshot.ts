import {
  address,
  getBase58Decoder,
  getSolanaErrorFromJsonRpcError,
  isOffCurveAddress,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  SolanaError,
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
import { HolderTally } from './holder-tally';
import { JsonRpcArrayStream } from './json-rpc-array-stream';

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

/**
 * Where the snapshot reads the chain: a cluster's JSON-RPC URL, whose answers it reads as they
 * arrive, or a transport that hands over whole parsed answers (the local ledger in process).
 */
export type AccountSource = { url: string } | { transport: RpcTransport };

/** One token account as the snapshot reads it: the owner's 32 bytes (latin1) and the amount. */
type OnAccount = (ownerKey: string, amount: bigint) => void;

/** An answer's `{ pubkey, account: { data: [base64, 'base64'] } }` items, read into `onAccount`. */
function readItems(items: unknown, onAccount: OnAccount, scratch: Buffer) {
  if (!Array.isArray(items)) throw new SyntaxError('getProgramAccounts did not answer a list');
  for (const item of items as Array<{ account?: { data?: unknown } }>) {
    const data = item.account?.data;
    const text = Array.isArray(data) ? (data[0] as unknown) : undefined;
    if (typeof text !== 'string')
      throw new SyntaxError('getProgramAccounts answered an account without data');
    // Decoded into one reused buffer: no allocation per account.
    if (scratch.write(text, 'base64') < 40) {
      throw new SyntaxError('getProgramAccounts answered a slice shorter than owner and amount');
    }
    onAccount(scratch.toString('latin1', 0, 32), scratch.readBigUInt64LE(32));
  }
}

/** The node's `result`, or its error as kit's own Solana RPC would throw it. */
function resultOf(response: unknown): unknown {
  const { result, error } = response as {
    result?: unknown;
    error?: Parameters<typeof getSolanaErrorFromJsonRpcError>[0];
  };
  if (error) throw getSolanaErrorFromJsonRpcError(error);
  return result;
}

let nextRequestId = 0;

/**
 * One getProgramAccounts call, its accounts handed to `onAccount` as they arrive. Over HTTP the
 * answer (about 280 bytes an account, 280 MB at a million holders) is never held whole: its body is
 * read chunk by chunk and each chunk's whole accounts are parsed and counted before the next one is
 * read (json-rpc-array-stream.ts). An HTTP error is kit's transport error, a JSON-RPC error kit's
 * Solana error, as kit's RPC client would throw them.
 */
async function programAccounts(
  source: AccountSource,
  params: [string, Record<string, unknown>],
  onAccount: OnAccount,
): Promise<void> {
  const payload = { jsonrpc: '2.0', id: String(nextRequestId++), method: 'getProgramAccounts', params };
  const scratch = Buffer.alloc(64);
  if ('transport' in source) {
    readItems(resultOf(await source.transport({ payload })), onAccount, scratch);
    return;
  }
  const response = await fetch(source.url, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(payload),
  });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new SolanaError(SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, {
      headers: response.headers,
      message: response.statusText,
      statusCode: response.status,
    });
  }
  const stream = new JsonRpcArrayStream((batch) => readItems(JSON.parse(batch), onAccount, scratch));
  const reader = response.body.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) stream.write(read.value);
  } catch (err) {
    await reader.cancel().catch(() => undefined);
    throw err;
  }
  const rest = resultOf(stream.end());
  // A node that wraps the list (`{ context, value }`) is read from what was kept.
  const items = Array.isArray(rest) ? rest : (rest as { value?: unknown } | null)?.value;
  readItems(items, onAccount, scratch);
}

/**
 * Every token account of the mint, its owner and amount handed to `onAccount` as it arrives, under
 * the mint's own program (a token account always belongs to its mint's program; without
 * `tokenProgram`, both are asked, at once). Only the owner and amount bytes are fetched.
 */
export async function forEachTokenAccount(
  source: AccountSource,
  mint: Address,
  tokenProgram: Address | undefined,
  onAccount: OnAccount,
): Promise<void> {
  const mintFilter = { memcmp: { offset: 0, bytes: mint as string, encoding: 'base58' as const } };
  const accountType = getBase58Decoder().decode(Uint8Array.of(2));
  const dataSlice = { offset: OWNER_OFFSET, length: 40 };
  const read = (program: Address) =>
    programAccounts(
      source,
      program === TOKEN_2022_PROGRAM_ADDRESS
        ? [
            TOKEN_2022_PROGRAM_ADDRESS,
            {
              encoding: 'base64',
              dataSlice,
              filters: [
                mintFilter,
                {
                  memcmp: { offset: TOKEN_2022_ACCOUNT_TYPE_OFFSET, bytes: accountType, encoding: 'base58' },
                },
              ],
            },
          ]
        : [
            TOKEN_PROGRAM_ADDRESS,
            { encoding: 'base64', dataSlice, filters: [{ dataSize: 165 }, mintFilter] },
          ],
      onAccount,
    );
  const programs = tokenProgram ? [tokenProgram] : [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS];
  await Promise.all(programs.map(read));
}

/** The mint's holders, summed by owner as the accounts arrive; `excluded` are never ranked. */
export async function readHolders(
  source: AccountSource,
  mint: Address,
  tokenProgram: Address | undefined,
  excluded: Iterable<string>,
): Promise<HolderTally> {
  const tally = new HolderTally(excluded);
  await forEachTokenAccount(source, mint, tokenProgram, (key, amount) => tally.add(key, amount));
  return tally;
}

/**
 * Every token account of the mint as a list of owner and amount, for a look at a small ledger
 * (tests); the snapshot itself sums them as they arrive (`readHolders`).
 */
export async function readTokenAccounts(
  transport: RpcTransport | AccountSource,
  mint: Address,
  tokenProgram?: Address,
): Promise<Array<{ owner: string; amount: bigint }>> {
  const source = typeof transport === 'function' ? { transport } : transport;
  const list: Array<{ owner: string; amount: bigint }> = [];
  await forEachTokenAccount(source, mint, tokenProgram, (key, amount) =>
    list.push({ owner: bs58.encode(Buffer.from(key, 'latin1')), amount }),
  );
  return list;
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

/**
 * The first `n` eligible holders in rank order, checking owners a hundred at a time; `ranked` is
 * read only as far as needed (a tally's ranking picks its next batch only when asked).
 */
export async function topEligible(
  rpc: Rpc<SolanaRpcApi>,
  ranked: Iterable<Holding>,
  n: number,
): Promise<Holding[]> {
  const top: Holding[] = [];
  const it = ranked[Symbol.iterator]();
  let done = false;
  while (!done && top.length < n) {
    const chunk: Holding[] = [];
    while (chunk.length < 100) {
      const next = it.next();
      if (next.done) {
        done = true;
        break;
      }
      chunk.push(next.value);
    }
    if (chunk.length === 0) break;
    const ok = await eligibleOwners(
      rpc,
      chunk.map((h) => h.owner),
    );
    for (const h of chunk) if (ok.has(h.owner) && top.length < n) top.push(h);
  }
  return top;
}
