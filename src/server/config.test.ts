import { describe, expect, it } from 'vitest';
import { ConfigSchema } from './config';
import { demoLedgerNotice } from './lib/demo-ledger-notice';

/**
 * The local demo ledger's rule (config.ts demoLedgerOf): its faucet and demo wallet are open to
 * anyone, so a configuration that looks like a live shop never runs it without LOCAL_LEDGER=demo,
 * whatever NODE_ENV, while `npm start` on an empty configuration still takes SOL and AELO.
 */
const ledgerOf = (env: Record<string, string>) => {
  const { solana } = ConfigSchema.parse({ DATA_DIR: '/tmp/shop-config-test', ...env });
  return {
    localLedger: solana.localLedger,
    demoLedger: solana.demoLedger,
    offBy: solana.demoLedgerOffBy,
    cluster: solana.cluster,
  };
};

const PRODUCTION = { NODE_ENV: 'production' };

describe('the local demo ledger setting (LOCAL_LEDGER)', () => {
  it('runs automatically on an empty configuration, in production too (the README quick start)', () => {
    for (const env of [{}, PRODUCTION, { NODE_ENV: 'development' }, { NODE_ENV: 'test' }]) {
      expect(ledgerOf(env), JSON.stringify(env)).toEqual({
        localLedger: true,
        demoLedger: 'automatic',
        offBy: null,
        cluster: 'local',
      });
    }
    // A plain-http PUBLIC_URL (a machine on the local network) does not look live.
    expect(ledgerOf({ ...PRODUCTION, PUBLIC_URL: 'http://192.168.1.20:3000' }).localLedger).toBe(true);
  });

  it('is off on a configuration that looks like a live shop, naming what made it off', () => {
    const live: Array<[Record<string, string>, string]> = [
      [{ PUBLIC_URL: 'https://shop.example' }, 'PUBLIC_URL (https)'],
      [{ DATABASE_URL: 'postgres://shop@db.example:5432/shop' }, 'DATABASE_URL'],
      [{ STRIPE_SECRET_KEY: 'sk_live_123' }, 'STRIPE_SECRET_KEY'],
      [{ STRIPE_WEBHOOK_SECRET: 'whsec_123' }, 'STRIPE_WEBHOOK_SECRET'],
      [{ SMTP_URL: 'smtps://user:pass@smtp.example:465' }, 'SMTP_URL'],
    ];
    for (const [settings, named] of live) {
      for (const nodeEnv of ['production', 'development', 'test']) {
        expect(ledgerOf({ NODE_ENV: nodeEnv, ...settings }), `${nodeEnv} ${named}`).toEqual({
          localLedger: false,
          demoLedger: null,
          offBy: named,
          cluster: 'mainnet-beta',
        });
      }
    }
    expect(
      ledgerOf({ ...PRODUCTION, PUBLIC_URL: 'https://shop.example', SMTP_URL: 'smtp://mail.example:587' })
        .offBy,
    ).toBe('PUBLIC_URL (https), SMTP_URL');
  });

  it('runs on a live-looking configuration only with LOCAL_LEDGER=demo', () => {
    expect(ledgerOf({ ...PRODUCTION, PUBLIC_URL: 'https://shop.example', LOCAL_LEDGER: 'demo' })).toEqual({
      localLedger: true,
      demoLedger: 'opted-in',
      offBy: null,
      cluster: 'local',
    });
    expect(
      ledgerOf({
        DATABASE_URL: 'postgres://shop@127.0.0.1/shop',
        STRIPE_SECRET_KEY: 'sk',
        LOCAL_LEDGER: 'demo',
      }).demoLedger,
    ).toBe('opted-in');
    expect(ledgerOf({ LOCAL_LEDGER: 'demo' }).demoLedger).toBe('opted-in');
  });

  it('never runs with LOCAL_LEDGER=off', () => {
    expect(ledgerOf({ ...PRODUCTION, LOCAL_LEDGER: 'off' })).toEqual({
      localLedger: false,
      demoLedger: null,
      offBy: 'LOCAL_LEDGER=off',
      cluster: 'mainnet-beta',
    });
    expect(ledgerOf({ NODE_ENV: 'development', LOCAL_LEDGER: 'off', SOLANA_CLUSTER: 'devnet' }).cluster).toBe(
      'devnet',
    );
  });

  it('is off with SOLANA_RPC_URL (a real cluster), and refuses LOCAL_LEDGER=demo beside it', () => {
    expect(ledgerOf({ SOLANA_RPC_URL: 'https://api.devnet.solana.com', SOLANA_CLUSTER: 'devnet' })).toEqual({
      localLedger: false,
      demoLedger: null,
      offBy: null,
      cluster: 'devnet',
    });
    expect(ledgerOf({ SOLANA_RPC_URL: 'https://rpc.example', LOCAL_LEDGER: 'off' }).localLedger).toBe(false);
    const both = ConfigSchema.safeParse({ SOLANA_RPC_URL: 'https://rpc.example', LOCAL_LEDGER: 'demo' });
    expect(both.success).toBe(false);
    const message = both.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n') ?? '';
    expect(message).toMatch(/^LOCAL_LEDGER: .*LOCAL_LEDGER=demo.*SOLANA_RPC_URL/);
  });

  it('refuses a value that is neither demo nor off', () => {
    const parsed = ConfigSchema.safeParse({ LOCAL_LEDGER: 'on' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['LOCAL_LEDGER']);
    // Empty is unset (a blank line in .env).
    expect(ledgerOf({ LOCAL_LEDGER: '' }).demoLedger).toBe('automatic');
  });
});

describe('what start-up says about the demo ledger', () => {
  const noticeOf = (env: Record<string, string>) =>
    demoLedgerNotice(ConfigSchema.parse({ DATA_DIR: '/tmp/shop-config-test', ...env }));

  it('warns, naming LOCAL_LEDGER, whenever the demo ledger runs under NODE_ENV=production', () => {
    const opted = noticeOf({ ...PRODUCTION, PUBLIC_URL: 'https://shop.example', LOCAL_LEDGER: 'demo' });
    expect(opted?.level).toBe('warn');
    expect(opted?.message).toMatch(/^demo ledger: payments are not real — LOCAL_LEDGER=demo /);
    const automatic = noticeOf(PRODUCTION);
    expect(automatic?.level).toBe('warn');
    expect(automatic?.message).toMatch(/^demo ledger: payments are not real — LOCAL_LEDGER is unset/);
    expect(automatic?.message).toContain('SOLANA_RPC_URL');
    expect(automatic?.message).toContain('LOCAL_LEDGER=off');
    // Development and tests: the banner says it; the log does not warn.
    expect(noticeOf({ NODE_ENV: 'development' })).toBeNull();
  });

  it('names the setting that turned it off', () => {
    const live = noticeOf({
      ...PRODUCTION,
      DATABASE_URL: 'postgres://shop@db.example/shop',
      SMTP_URL: 'smtp://m.example',
    });
    expect(live).toMatchObject({ level: 'warn', details: { setting: 'DATABASE_URL, SMTP_URL' } });
    expect(live?.message).toContain('(DATABASE_URL, SMTP_URL)');
    expect(live?.message).toContain('LOCAL_LEDGER=demo');
    expect(noticeOf({ ...PRODUCTION, LOCAL_LEDGER: 'off' })).toMatchObject({
      level: 'info',
      details: { setting: 'LOCAL_LEDGER=off' },
    });
    expect(noticeOf({ ...PRODUCTION, SOLANA_RPC_URL: 'https://rpc.example' })).toBeNull();
  });
});
