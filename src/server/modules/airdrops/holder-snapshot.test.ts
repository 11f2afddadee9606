import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  address,
  isSolanaError,
  SOLANA_ERROR__JSON_RPC__INVALID_PARAMS,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
} from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { TOKEN_2022_PROGRAM_ADDRESS } from '@solana-program/token-2022';
import bs58 from 'bs58';
import { afterEach, describe, expect, it } from 'vitest';
import { readHolders, readTokenAccounts } from './holder-snapshot';

const MINT = address(bs58.encode(randomBytes(32)));

/** A node answering getProgramAccounts with `answer(program, params)`, written in small pieces. */
async function node(answer: (program: string, params: unknown[], res: ServerResponse) => void) {
  const asked: unknown[][] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { params } = JSON.parse(body) as { params: unknown[] };
      asked.push(params);
      answer(params[0] as string, params, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}
const servers: Array<ReturnType<typeof createServer>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function slice(owner: string, amount: bigint) {
  const bytes = Buffer.alloc(40);
  Buffer.from(bs58.decode(owner)).copy(bytes);
  bytes.writeBigUInt64LE(amount, 32);
  return bytes.toString('base64');
}

/** Writes `text` 97 bytes at a time, so accounts and characters straddle the pieces. */
function writeInPieces(res: ServerResponse, text: string) {
  res.writeHead(200, { 'content-type': 'application/json' });
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += 97) res.write(bytes.subarray(i, i + 97));
  res.end();
}

describe('holder snapshot over HTTP', () => {
  it('sums the accounts of both token programs by owner as the answers arrive', async () => {
    const owners = Array.from({ length: 300 }, () => bs58.encode(randomBytes(32)));
    const accounts = (program: string) =>
      owners.map((owner, i) => ({
        pubkey: bs58.encode(randomBytes(32)),
        account: {
          data: [slice(owner, BigInt(i) * (program === TOKEN_PROGRAM_ADDRESS ? 1n : 1_000n)), 'base64'],
          executable: false,
          lamports: 2039280,
          owner: program,
          rentEpoch: 0,
          space: 40,
        },
      }));
    const { url, asked } = await node((program, _params, res) =>
      writeInPieces(res, JSON.stringify({ jsonrpc: '2.0', result: accounts(program), id: 1 })),
    );
    const tally = await readHolders({ url }, MINT, undefined, [owners[299]!]);
    // Owner 0 holds nothing on either program: not a holder.
    expect(tally.holderCount).toBe(299);
    const ranking = [...tally.ranking()];
    expect(ranking[0]).toEqual({ owner: owners[298], amount: 298n * 1_001n });
    expect(ranking).toHaveLength(298);
    expect(asked.map((p) => p[0]).sort()).toEqual([TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS].sort());
    // Token-2022 is asked for token accounts only (the account-type byte), the Token program by size.
    const filters = (program: string) =>
      JSON.stringify((asked.find((p) => p[0] === program)![1] as { filters: unknown }).filters);
    expect(filters(TOKEN_2022_PROGRAM_ADDRESS)).toContain('"offset":165');
    expect(filters(TOKEN_PROGRAM_ADDRESS)).toContain('"dataSize":165');
    // The list reader (a small ledger) reads the same accounts.
    const list = await readTokenAccounts({ url }, MINT, TOKEN_PROGRAM_ADDRESS);
    expect(list).toHaveLength(300);
    expect(list[7]).toEqual({ owner: owners[7], amount: 7n });
  });

  it("throws the node's JSON-RPC error and an HTTP error as kit's Solana errors", async () => {
    const rpcError = await node((_program, _params, res) =>
      writeInPieces(
        res,
        JSON.stringify({ jsonrpc: '2.0', error: { code: -32602, message: 'Invalid params' }, id: 1 }),
      ),
    );
    const thrown = await readHolders(rpcError, MINT, TOKEN_PROGRAM_ADDRESS, []).catch((e: unknown) => e);
    expect(isSolanaError(thrown, SOLANA_ERROR__JSON_RPC__INVALID_PARAMS)).toBe(true);

    const httpError = await node((_program, _params, res) => {
      res.writeHead(503);
      res.end('busy');
    });
    const refused = await readHolders(httpError, MINT, undefined, []).catch((e: unknown) => e);
    expect(isSolanaError(refused, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)).toBe(true);
  });

  it('refuses an answer cut short', async () => {
    const { url } = await node((_program, _params, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"jsonrpc":"2.0","result":[{"account":{"data":["');
    });
    await expect(readHolders({ url }, MINT, TOKEN_PROGRAM_ADDRESS, [])).rejects.toThrow(SyntaxError);
  });
});
