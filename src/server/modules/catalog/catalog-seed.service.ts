import type { ProductInput } from '#common/schemas/product';
import type { Db } from '#server/db/client';
import { createCatalogRepository } from './catalog.repository';

/**
 * The demo seed's way into the catalogue (src/server/seed/demo-seed.ts makes the products and
 * their photos; this module owns the table, the advisory lock and the rule "only into an empty
 * catalogue, once across instances").
 */

/** A product as admin input gives it (checked by ProductInputSchema), listed at `listedAt`. */
export type ListedProduct = ProductInput & { listedAt: Date };

/** Whether the catalogue holds any product. */
export async function catalogHasProducts(db: Db): Promise<boolean> {
  return (await createCatalogRepository(db).countProducts()) > 0;
}

/**
 * Inserts the products `make` returns into an empty catalogue, in one transaction that first
 * takes the demo seed's transaction-level advisory lock and counts again: with several instances
 * starting at once, one fills it and the others wait, then find it filled. `make` runs inside the
 * lock (so a waiting instance makes nothing) and not at all when the catalogue is not empty.
 * Returns how many products were inserted (0: the catalogue was not empty).
 */
export async function fillEmptyCatalog(db: Db, make: () => Promise<ListedProduct[]>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const repo = createCatalogRepository(trx);
    await repo.lockDemoSeed();
    if ((await repo.countProducts()) > 0) return 0;
    const products = await make();
    await repo.insertProducts(
      products.map(({ listedAt, ...input }) => ({ ...input, createdAt: listedAt, updatedAt: listedAt })),
    );
    return products.length;
  });
}
