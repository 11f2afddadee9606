/**
 * A new shop's first start pays nobody before anyone has looked: on a fresh database the daily
 * top-50 airdrop whose slot (AIRDROP_DAILY_UTC_TIME, 12:00 by default) passed before the shop first
 * started is not run; the first daily run is at the next slot, and the admin's Airdrops data names
 * it.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminAirdrops } from '#common/schemas/admin-airdrops';
import { createAirdropsAdminService } from '#server/modules/airdrops/airdrops-admin.service';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { stopShop, type RunningShop } from '../helpers/shop-server';
import { json, signInClients } from './admin-test-kit';
import { creditPool, engineFor, startRewardsShop } from './airdrop-test-kit';

warnIfPostgresSkipped();

describe.each(BACKENDS)("a new shop's first daily airdrop (%s)", (backend) => {
  let shop: RunningShop | undefined;
  afterEach(async () => {
    if (shop) await stopShop(shop);
    shop = undefined;
  });

  it('waits for the next slot after the first start: not today at 13:00, tomorrow after 12:00', async () => {
    const started = await startRewardsShop(backend);
    shop = started.shop;
    const running = started.shop;
    const db = running.t.deps.database.db;
    await creditPool(running, 'buyback', 20_000);
    let clock = new Date('2026-11-25T13:00:00Z');
    const engine = () => engineFor(running, { now: () => clock });
    const admin = () =>
      createAirdropsAdminService({ db, audit: running.t.deps.admin.audit, engine: engine() });
    const nextDaily = async () =>
      (await admin().list({ search: '', age: 'all', page: 1, pageSize: 20 })).schedule;
    const dailyRuns = () =>
      db
        .selectFrom('airdrop_runs')
        .select(sql<string>`run_date::text`.as('run_date'))
        .where('kind', '=', 'top50')
        .execute();

    // Before the first tick the page already says tomorrow: today's slot passed before the start.
    expect(await nextDaily()).toEqual({ nextDailyAt: '2026-11-26T12:00:00.000Z' });
    expect((await engine().tick()).runs.filter((r) => r.kind === 'top50')).toEqual([]);
    expect(await dailyRuns()).toEqual([]);
    const [seen] = await db.selectFrom('airdrop_first_seen').select('at').execute();
    expect(new Date(seen!.at).toISOString()).toBe('2026-11-25T13:00:00.000Z');

    // Later the same day, and a restart: still nothing, the first seen time kept.
    clock = new Date('2026-11-25T23:59:00Z');
    expect((await engine().tick()).runs.filter((r) => r.kind === 'top50')).toEqual([]);
    clock = new Date('2026-11-26T11:59:00Z');
    expect((await engine().tick()).runs.filter((r) => r.kind === 'top50')).toEqual([]);
    expect(await dailyRuns()).toEqual([]);
    expect(await nextDaily()).toEqual({ nextDailyAt: '2026-11-26T12:00:00.000Z' });

    // Tomorrow after 12:00: due (the page says so until the scheduler runs it), then run once.
    clock = new Date('2026-11-26T12:01:00Z');
    expect(await nextDaily()).toEqual({ nextDailyAt: '2026-11-26T12:00:00.000Z' });
    const { runs } = await engine().tick();
    expect(runs.filter((r) => r.kind === 'top50')).toHaveLength(1);
    expect(runs.find((r) => r.kind === 'top50')!.recipients).toBeGreaterThan(0);
    expect(await dailyRuns()).toEqual([{ run_date: '2026-11-26' }]);
    expect((await engine().tick()).runs.filter((r) => r.kind === 'top50')).toEqual([]);
    expect(await nextDaily()).toEqual({ nextDailyAt: '2026-11-27T12:00:00.000Z' });
  });

  it("a fresh database before the day's slot runs it that day", async () => {
    const started = await startRewardsShop(backend);
    shop = started.shop;
    const running = started.shop;
    await creditPool(running, 'buyback', 20_000);
    let clock = new Date('2026-11-25T09:00:00Z');
    const engine = () => engineFor(running, { now: () => clock });
    expect(await engine().nextDailyAt()).toEqual(new Date('2026-11-25T12:00:00Z'));
    expect((await engine().tick()).runs.filter((r) => r.kind === 'top50')).toEqual([]);
    clock = new Date('2026-11-25T12:00:00Z');
    expect((await engine().tick()).runs.filter((r) => r.kind === 'top50')).toHaveLength(1);
  });

  it("the admin's Airdrops data names the next daily run", async () => {
    const started = await startRewardsShop(backend);
    shop = started.shop;
    const clients = await signInClients(shop.t);
    const body = await json<AdminAirdrops>(await clients.admin.get('/api/admin/airdrops'), 200);
    // A fresh database on the real clock: today's 12:00 UTC if it is still ahead, else tomorrow's.
    const now = Date.now();
    const today = new Date(`${new Date(now).toISOString().slice(0, 10)}T12:00:00.000Z`);
    const expected = today.getTime() > now ? today : new Date(today.getTime() + 86_400_000);
    expect(body.schedule.nextDailyAt).toBe(expected.toISOString());
  });
});
