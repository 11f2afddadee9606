import { describe, expect, it } from 'vitest';
import { createLocalChainLimiter, type LocalChainLimits } from './local-chain-limits';

const LIMITS: LocalChainLimits = {
  callsPerMinute: 30,
  sendsPerMinute: 6,
  airdropsPerMinute: 2,
  scansPerMinute: 3,
  networkMultiplier: 2,
  request: { maxBatch: 5, maxAccounts: 100, maxDataBytes: 1024 },
};
const call = (method: string, id = 1) => ({ jsonrpc: '2.0', id, method, params: [] });
const v4 = (ip: string) => ({ key: ip, network: ip });

describe('the local chain limits per client', () => {
  it('serves a minute of each kind at once, then as it refills, counting every call of a batch', () => {
    let now = 0;
    const limiter = createLocalChainLimiter(LIMITS, () => now);
    const client = v4('198.51.100.1');
    expect(limiter.admit(client, JSON.stringify(call('requestAirdrop'))).ok).toBe(true);
    expect(limiter.admit(client, JSON.stringify(call('requestAirdrop'))).ok).toBe(true);
    const refused = limiter.admit(client, JSON.stringify(call('requestAirdrop', 9)));
    expect(refused).toEqual({
      ok: false,
      status: 429,
      retryAfterSeconds: 30,
      body: {
        jsonrpc: '2.0',
        error: {
          code: 429,
          message:
            'Too many requests: this client may make 2 requestAirdrop calls a minute on this ledger; retry in 30 s',
        },
        id: 9,
      },
    });
    // Other calls go on; another client is untouched.
    expect(limiter.admit(client, JSON.stringify(call('getSlot'))).ok).toBe(true);
    expect(limiter.admit(v4('198.51.100.2'), JSON.stringify(call('requestAirdrop'))).ok).toBe(true);
    now += 30_000;
    expect(limiter.admit(client, JSON.stringify(call('requestAirdrop'))).ok).toBe(true);
    expect(limiter.admit(client, JSON.stringify(call('requestAirdrop'))).ok).toBe(false);

    // A batch counts each call; refused whole, it takes nothing.
    const sends = JSON.stringify([1, 2, 3, 4].map((id) => call('sendTransaction', id)));
    expect(limiter.admit(client, sends).ok).toBe(true);
    const again = limiter.admit(client, sends);
    expect(again.ok).toBe(false);
    if (!again.ok)
      expect((again.body as unknown[]).map((a) => (a as { id: number }).id)).toEqual([1, 2, 3, 4]);
    expect(
      limiter.admit(client, JSON.stringify([call('sendTransaction'), call('simulateTransaction')])).ok,
    ).toBe(true);
  });

  it('refuses a batch over the cap as too large, counting nothing', () => {
    const limiter = createLocalChainLimiter(LIMITS, () => 0);
    const batch = JSON.stringify([1, 2, 3, 4, 5, 6].map((id) => call('getSlot', id)));
    expect(limiter.admit(v4('198.51.100.3'), batch)).toMatchObject({
      ok: false,
      status: 413,
      body: { error: { code: -32600, message: 'Invalid request: a batch may hold at most 5 requests' } },
    });
  });

  it('counts an IPv6 /64 as one client, and bounds its /56 at the multiplier', () => {
    const limiter = createLocalChainLimiter(LIMITS, () => 0);
    const scan = JSON.stringify(call('getProgramAccounts'));
    const a = { key: '2001:db8:0:100::/64', network: '2001:db8:0:100::/56' };
    const b = { key: '2001:db8:0:101::/64', network: '2001:db8:0:100::/56' };
    const c = { key: '2001:db8:0:102::/64', network: '2001:db8:0:100::/56' };
    for (let i = 0; i < 3; i++) expect(limiter.admit(a, scan).ok).toBe(true);
    expect(limiter.admit(a, scan).ok).toBe(false);
    for (let i = 0; i < 3; i++) expect(limiter.admit(b, scan).ok).toBe(true);
    // The /56 has had twice a client's listings: a third /64 of it gets none.
    expect(limiter.admit(c, scan).ok).toBe(false);
    expect(limiter.admit({ key: '2001:db8:1::/64', network: '2001:db8:1::/56' }, scan).ok).toBe(true);
  });
});
