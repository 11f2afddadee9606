import type { Db } from '#server/db/client';
import type { PaymentStatus } from '#server/db/schema';

/** What /metrics reads from the database at scrape time. */
export function createMetricsRepository(db: Db) {
  return {
    /** Payments per status (statuses without any payment are absent). */
    async countPaymentsByStatus(): Promise<Array<{ status: PaymentStatus; count: number }>> {
      const rows = await db
        .selectFrom('payments')
        .select(['status', (eb) => eb.fn.countAll<string | number>().as('count')])
        .groupBy('status')
        .execute();
      return rows.map((r) => ({ status: r.status, count: Number(r.count) }));
    },
  };
}
