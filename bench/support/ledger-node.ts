/**
 * A Solana node for benchmarks, in its own process as a real cluster's node would be: the local
 * ledger (litesvm) holding `--holders=N` token accounts of its mint, serving JSON-RPC over HTTP.
 * The largest holders are real wallets (on the curve, no account); below them, random addresses.
 * Prints one JSON line (`url`, `mint`, `shopWallet`, `treasuryKey`) once it listens; stops when
 * its standard input closes.
 *
 *   npx tsx bench/support/ledger-node.ts --holders=100000
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@solana/web3.js';
import { address, getAddressDecoder } from '@solana/kit';
import { AccountState, getTokenEncoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { openLocalChain } from '../../src/server/local-ledger/local-chain';

const HOLDERS = Number(process.argv.find((a) => a.startsWith('--holders='))?.split('=')[1] ?? 100_000);
const WALLETS_AT_TOP = 200;

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-bench-node-'));
  const chain = await openLocalChain(dataDir);
  const { ledger, setup } = chain;
  const encoder = getTokenEncoder();
  const toAddress = getAddressDecoder();
  const rent = ledger.minimumBalanceForRentExemption(165);
  for (let i = 0; i < HOLDERS; i++) {
    const owner =
      i < WALLETS_AT_TOP
        ? address(Keypair.generate().publicKey.toBase58())
        : toAddress.decode(randomBytes(32));
    ledger.setAccount({
      address: toAddress.decode(randomBytes(32)),
      lamports: rent,
      owner: TOKEN_PROGRAM_ADDRESS,
      executable: false,
      data: Uint8Array.from(
        encoder.encode({
          mint: setup.mint,
          owner,
          // From N × 500 AELO down, every holder a different balance.
          amount: BigInt(HOLDERS - i) * 500_000_000n + BigInt(i % 997),
          delegate: null,
          state: AccountState.Initialized,
          isNative: null,
          delegatedAmount: 0n,
          closeAuthority: null,
        }),
      ),
    });
  }
  const keys = JSON.parse(readFileSync(path.join(dataDir, 'local-ledger', 'keys.json'), 'utf8')) as {
    treasury: number[];
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const started = performance.now();
      void chain.handle(Buffer.concat(chunks).toString('utf8')).then(
        (body) => {
          if (process.env.LEDGER_NODE_TRACE)
            console.error('handled', body.length, performance.now() - started);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(body);
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
