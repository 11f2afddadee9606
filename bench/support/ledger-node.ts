/**
 * A Solana node for benchmarks, in its own process as a real cluster's node would be: the local
 * ledger (litesvm) holding `--holders=N` token accounts of its mint, serving JSON-RPC over HTTP.
 * The largest holders are real wallets (on the curve, no account); below them, random addresses.
 * Prints one JSON line (`url`, `mint`, `shopWallet`, `treasuryKey`) once it listens; stops when
 * its standard input closes.
 *
 * A million holders: the accounts are written straight into litesvm (one token-account template,
 * owner and amount patched in; no codec or base58 per account), and getProgramAccounts on the two
 * token programs is answered here, from the node's own index of their accounts (what a validator's
 * program-id account index is), written to the socket 64 kB at a time as a node streams its answer.
 * The ledger's handler builds the whole answer as one string (about 280 MB at a million accounts)
 * before a byte leaves, and litesvm's listing costs a native call per account and per field (35 µs
 * an account measured here, 35 s at a million), which a validator written in Rust does not pay.
 * The index holds the token accounts there were at start and those seeded; the bench only reads
 * (the payout plan), so it stays what litesvm holds. Every other method goes to the ledger's handler.
 *
 *   npx tsx bench/support/ledger-node.ts --holders=100000
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@solana/web3.js';
import { address } from '@solana/kit';
import { AccountState, getTokenEncoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { TOKEN_2022_PROGRAM_ADDRESS } from '@solana-program/token-2022';
import bs58 from 'bs58';
import { Account } from 'litesvm/dist/internal';
import { openLocalChain } from '../../src/server/local-ledger/local-chain';

const HOLDERS = Number(process.argv.find((a) => a.startsWith('--holders='))?.split('=')[1] ?? 100_000);
const WALLETS_AT_TOP = 200;
/** What a node answers as rentEpoch for a rent-exempt account (u64::MAX). */
const RENT_EPOCH_EXEMPT = '18446744073709551615';
const FLUSH_BYTES = 64 * 1024;

/** The part of litesvm's native object the node writes and lists accounts with. */
interface NativeSvm {
  setAccount(address: Uint8Array, account: Account): void;
  getProgramAccounts(program: Uint8Array): Array<{ address: Uint8Array; account(): Account }>;
}

type Filter = { dataSize: number } | { memcmp: { offset: number; bytes: string; encoding?: string } };

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-bench-node-'));
  const chain = await openLocalChain(dataDir);
  const { ledger, setup } = chain;
  const native = (ledger as unknown as { svm: { inner: NativeSvm } }).svm.inner;
  const TOKEN_PROGRAMS = [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS] as string[];
  /** The token accounts there were at start (the genesis's), by program. */
  const genesis = new Map(
    TOKEN_PROGRAMS.map((program) => [
      program,
      native.getProgramAccounts(bs58.decode(program)).map((entry) => {
        const account = entry.account();
        return {
          name: bs58.encode(entry.address),
          lamports: account.lamports(),
          executable: account.executable(),
          data: Buffer.from(account.data()),
        };
      }),
    ]),
  );
  /** The seeded token accounts (Token program, 165 bytes each, rent-exempt): data and addresses. */
  const seeded = { data: Buffer.alloc(HOLDERS * 165), names: [] as string[] };
  const rent = ledger.minimumBalanceForRentExemption(165);
  const tokenProgram = bs58.decode(TOKEN_PROGRAM_ADDRESS);
  const template = Buffer.from(
    getTokenEncoder().encode({
      mint: setup.mint,
      owner: address(setup.mint),
      amount: 0n,
      delegate: null,
      state: AccountState.Initialized,
      isNative: null,
      delegatedAmount: 0n,
      closeAuthority: null,
    }),
  );
  const seeding = performance.now();
  for (let i = 0; i < HOLDERS; i++) {
    const owner = i < WALLETS_AT_TOP ? Keypair.generate().publicKey.toBuffer() : (randomBytes(32) as Buffer);
    const data = seeded.data.subarray(i * 165, (i + 1) * 165);
    template.copy(data);
    owner.copy(data, 32);
    // From N × 500 AELO down, every holder a different balance.
    data.writeBigUInt64LE(BigInt(HOLDERS - i) * 500_000_000n + BigInt(i % 997), 64);
    const key = randomBytes(32);
    seeded.names.push(bs58.encode(key));
    native.setAccount(key, new Account(rent, data, tokenProgram, false, 0n));
  }
  if (process.env.LEDGER_NODE_TRACE) console.error('seeded', HOLDERS, performance.now() - seeding);
  const keys = JSON.parse(readFileSync(path.join(dataDir, 'local-ledger', 'keys.json'), 'utf8')) as {
    treasury: number[];
  };

  /** getProgramAccounts with base64 data, written as it is listed; false when not this method. */
  function streamProgramAccounts(body: string, res: ServerResponse): boolean {
    let request: { id?: unknown; method?: unknown; params?: [string, Record<string, unknown>?] };
    try {
      request = JSON.parse(body) as typeof request;
    } catch {
      return false;
    }
    const [program, config = {}] = request.params ?? [];
    if (request.method !== 'getProgramAccounts' || typeof program !== 'string') return false;
    if ((config.encoding ?? 'base64') !== 'base64' || config.withContext) return false;
    const slice = config.dataSlice as { offset: number; length: number } | undefined;
    const filters = ((config.filters ?? []) as Filter[]).map((f) => {
      if ('dataSize' in f) return (data: Buffer) => data.length === f.dataSize;
      const bytes = Buffer.from(
        f.memcmp.encoding === 'base64' ? Buffer.from(f.memcmp.bytes, 'base64') : bs58.decode(f.memcmp.bytes),
      );
      const end = f.memcmp.offset + bytes.length;
      return (data: Buffer) => data.length >= end && bytes.compare(data, f.memcmp.offset, end) === 0;
    });
    const accounts = genesis.get(program);
    if (!accounts) return false;
    res.writeHead(200, { 'content-type': 'application/json' });
    const from = slice?.offset ?? 0;
    let out = '{"jsonrpc":"2.0","result":[';
    let first = true;
    const piece = (name: string, lamports: bigint, executable: boolean, data: Buffer) => {
      if (!filters.every((f) => f(data))) return;
      const shown = data.toString('base64', from, slice ? from + slice.length : data.length);
      out += `${first ? '' : ','}{"account":{"data":["${shown}","base64"],"executable":${executable},"lamports":${lamports},"owner":"${program}","rentEpoch":${RENT_EPOCH_EXEMPT},"space":${data.length}},"pubkey":"${name}"}`;
      first = false;
    };
    for (const a of accounts) piece(a.name, a.lamports, a.executable, a.data);
    let i = 0;
    const count = program === TOKEN_PROGRAM_ADDRESS ? seeded.names.length : 0;
    const pump = () => {
      while (i < count) {
        piece(seeded.names[i]!, rent, false, seeded.data.subarray(i * 165, (i + 1) * 165));
        i++;
        if (out.length >= FLUSH_BYTES) {
          const more = res.write(out);
          out = '';
          if (!more) {
            res.once('drain', pump);
            return;
          }
        }
      }
      res.end(`${out}],"id":${JSON.stringify(request.id ?? null)}}`);
    };
    pump();
    return true;
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const started = performance.now();
      const body = Buffer.concat(chunks).toString('utf8');
      if (streamProgramAccounts(body, res)) {
        if (process.env.LEDGER_NODE_TRACE)
          res.once('finish', () => console.error('streamed', performance.now() - started));
        return;
      }
      void chain.handle(body).then(
        (answer) => {
          if (process.env.LEDGER_NODE_TRACE)
            console.error('handled', answer.length, performance.now() - started);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(answer);
        },
        (err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(err));
        },
      );
    });
  });
  // A busy node answers a 100,000-account request for seconds; idle sockets stay open longer than
  // that, as an RPC node's do, so a client never reuses one the node is closing.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  process.stdout.write(
    `${JSON.stringify({
      url: `http://127.0.0.1:${port}`,
      mint: setup.mint,
      shopWallet: setup.shopWallet,
      treasuryKey: keys.treasury,
    })}\n`,
  );
  process.stdin.resume();
  process.stdin.on('end', () => {
    server.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
