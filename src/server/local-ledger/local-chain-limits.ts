/**
 * What one client may ask of /local-chain: per client (`clientKeyOf`: an IPv4 address, an IPv6
 * /64; its /56 at `networkMultiplier` times each limit, as the shop's other limits) and minute, JSON-RPC calls (each call of a batch counts), and among them sends
 * (sendTransaction, simulateTransaction: each runs the VM), faucet requests (requestAirdrop) and
 * account listings (getProgramAccounts, getTokenAccountsByOwner, getTokenLargestAccounts: each looks
 * at every account of a program). Token buckets in memory: a bucket holds a minute's allowance and
 * refills continuously, so a burst is served and a flood is held to the rate. The ledger is this
 * instance's own, so are its limits.
 *
 * A request over a limit is refused whole, nothing counted, with HTTP 429, Retry-After and a
 * JSON-RPC error (code 429, as Solana's public RPC answers; web3.js retries it after a delay). The
 * shop's own use of the ledger (chain.service.ts, in process) never comes through here.
 */
import type { RequestLimits } from './rpc-accounts';

export interface LocalChainLimits {
  callsPerMinute: number;
  sendsPerMinute: number;
  airdropsPerMinute: number;
  scansPerMinute: number;
  /** An IPv6 client's /56 may use this many times each per-client limit. */
  networkMultiplier: number;
  /** What one request may do (rpc.ts). */
  request: RequestLimits;
}

type Kind = 'calls' | 'sends' | 'airdrops' | 'scans';

const KIND_OF: Record<string, Kind> = {
  sendTransaction: 'sends',
  simulateTransaction: 'sends',
  requestAirdrop: 'airdrops',
  getProgramAccounts: 'scans',
  getTokenAccountsByOwner: 'scans',
  getTokenLargestAccounts: 'scans',
};

const WHAT: Record<Kind, string> = {
  calls: 'JSON-RPC calls',
  sends: 'sendTransaction and simulateTransaction calls',
  airdrops: 'requestAirdrop calls',
  scans: 'account listings (getProgramAccounts, getTokenAccountsByOwner, getTokenLargestAccounts)',
};

const MINUTE_MS = 60_000;

interface Bucket {
  tokens: Record<Kind, number>;
  /** What it holds when full: a minute's allowance (times the multiplier for a network). */
  full: Record<Kind, number>;
  at: number;
}

/** Who asks: the client's key and its network's (the same for IPv4). */
export interface LocalChainClient {
  key: string;
  network: string;
}

/** How a request is let in: served, refused as too large, or refused for now. */
export type Admission =
  { ok: true } | { ok: false; status: 413 | 429; body: unknown; retryAfterSeconds?: number };

/** The JSON-RPC ids of a body (null for a body that is not JSON, or a request without one). */
function idsOf(request: unknown): Array<string | number | null> {
  const one = (r: unknown) => {
    const id = (r as { id?: unknown } | null)?.id;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  };
  return Array.isArray(request) ? request.map(one) : [one(request)];
}

export function createLocalChainLimiter(limits: LocalChainLimits, now: () => number = Date.now) {
  const perMinute: Record<Kind, number> = {
    calls: limits.callsPerMinute,
    sends: limits.sendsPerMinute,
    airdrops: limits.airdropsPerMinute,
    scans: limits.scansPerMinute,
  };
  const kinds = Object.keys(perMinute) as Kind[];
  const buckets = new Map<string, Bucket>();
  let admitted = 0;

  const refill = (bucket: Bucket, at: number) => {
    const elapsed = at - bucket.at;
    for (const kind of kinds) {
      bucket.tokens[kind] = Math.min(
        bucket.full[kind],
        bucket.tokens[kind] + (elapsed * bucket.full[kind]) / MINUTE_MS,
      );
    }
    bucket.at = at;
  };
  const bucketOf = (key: string, scale: number, at: number): Bucket => {
    let bucket = buckets.get(key);
    if (!bucket) {
      const full = Object.fromEntries(kinds.map((kind) => [kind, perMinute[kind] * scale])) as Record<
        Kind,
        number
      >;
      bucket = { tokens: { ...full }, full, at };
      buckets.set(key, bucket);
    }
    refill(bucket, at);
    return bucket;
  };

  /** Buckets untouched for a minute are full again: forgotten, so the map holds active clients only. */
  const forgetIdle = (at: number) => {
    for (const [key, bucket] of buckets) if (at - bucket.at >= MINUTE_MS) buckets.delete(key);
  };

  return {
    /** Counts the request `body` of `client` against its limits, or refuses it (nothing counted). */
    admit(client: LocalChainClient, body: string): Admission {
      let request: unknown;
      try {
        request = JSON.parse(body);
      } catch {
        request = null; // the ledger answers the parse error; it counts as one call
      }
      const ids = idsOf(request);
      if (Array.isArray(request) && request.length > limits.request.maxBatch) {
        return {
          ok: false,
          status: 413,
          body: {
            jsonrpc: '2.0',
            error: {
              code: -32600,
              message: `Invalid request: a batch may hold at most ${limits.request.maxBatch} requests`,
            },
            id: null,
          },
        };
      }
      const calls = Array.isArray(request) ? request : [request];
      const need: Record<Kind, number> = {
        calls: Math.max(1, calls.length),
        sends: 0,
        airdrops: 0,
        scans: 0,
      };
      for (const call of calls) {
        const method = (call as { method?: unknown } | null)?.method;
        const kind = typeof method === 'string' ? KIND_OF[method] : undefined;
        if (kind) need[kind] += 1;
      }

      const at = now();
      if (++admitted % 1024 === 0) forgetIdle(at);
      const held = [bucketOf(`client ${client.key}`, 1, at)];
      if (client.network !== client.key)
        held.push(bucketOf(`network ${client.network}`, limits.networkMultiplier, at));
      const short = held.flatMap((bucket) =>
        kinds.filter((kind) => need[kind] > bucket.tokens[kind]).map((kind) => ({ bucket, kind })),
      );
      if (short.length === 0) {
        for (const bucket of held) for (const kind of kinds) bucket.tokens[kind] -= need[kind];
        return { ok: true };
      }
      // The wait until every short bucket holds what this request needs (never more than a minute).
      const waitMs = Math.max(
        ...short.map(({ bucket, kind }) =>
          need[kind] > bucket.full[kind]
            ? MINUTE_MS
            : ((need[kind] - bucket.tokens[kind]) * MINUTE_MS) / bucket.full[kind],
        ),
      );
      const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
      // The most specific limit reached names the refusal (listed calls first, then sends and the rest).
      const { kind } = short.reduce((a, b) => (kinds.indexOf(b.kind) > kinds.indexOf(a.kind) ? b : a));
      const error = {
        code: 429,
        message: `Too many requests: this client may make ${perMinute[kind]} ${WHAT[kind]} a minute on this ledger; retry in ${retryAfterSeconds} s`,
      };
      const answers = ids.map((id) => ({ jsonrpc: '2.0', error, id }));
      return {
        ok: false,
        status: 429,
        retryAfterSeconds,
        body: Array.isArray(request) ? answers : answers[0],
      };
    },
  };
}

export type LocalChainLimiter = ReturnType<typeof createLocalChainLimiter>;
