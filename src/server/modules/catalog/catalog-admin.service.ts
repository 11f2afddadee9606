import { imageSrcSet, resolveImageUrl } from '#common/images';
import { ADMIN_MESSAGES, UUID_PATTERN, type AdminDeleted, type Page } from '#common/schemas/admin';
import {
  type AdminCategoryList,
  type AdminProductPatch,
  type AdminProductsQuery,
} from '#common/schemas/admin-products';
import {
  categoryLabel,
  ProductInputSchema,
  SizeStockSchema,
  type Product,
  type ProductInput,
  type ProductInputDraft,
} from '#common/schemas/product';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import { announceAudit, recordAudit, type AdminActor } from '../audit/audit.service';
import type { EventHub } from '../events/event-hub';
import type { Storage } from '../storage/storage';
import { createCatalogAdminRepository } from './catalog-admin.repository';
import { createCatalogRepository, type ProductRecord } from './catalog.repository';
import { sizeStockOnHand, sizeStockToStore, sizeStockTotal } from './size-stock';

/**
 * Product administration: list/search/paginate, read, create, replace, patch, delete.
 *
 * Quantities: `products.quantity` counts the units a shopper can still buy; open checkouts hold
 * the rest (stock_reservations) until they are paid or released. The admin sees and edits units on
 * hand, held ones included, with the held ones shown apart (`reservedQuantity`): an edit to N sets
 * the buyable units to N minus what is held, so a released hold can never add units that are not
 * there. N below the held units is refused. With "Stock per size" on (`sizeStock`), the same
 * holds per size: the admin sees and sets units on hand per size, the held ones apart. Each write
 * is one transaction with its audit entry; after commit 'product.created|updated|deleted' goes to
 * 'catalog' (every instance's storefront cache drops) and 'admin:products' (open admin lists).
 *
 * Images are storage keys returned by POST /api/uploads; a new key must exist in storage. Image
 * files are never deleted here: order items keep their image as a snapshot.
 */
export interface CatalogAdminService {
  list(query: AdminProductsQuery): Promise<Page<Product>>;
  categories(): Promise<AdminCategoryList>;
  get(id: string): Promise<Product>;
  create(input: ProductInput, actor: AdminActor): Promise<Product>;
  replace(id: string, input: ProductInput, actor: AdminActor): Promise<Product>;
  /** Merges the given fields into the stored product, then validates the whole as ProductInput. */
  patch(id: string, changes: AdminProductPatch, actor: AdminActor): Promise<Product>;
  remove(id: string, actor: AdminActor): Promise<AdminDeleted>;
}

const NOT_FOUND = 'Product not found';

/** A product as the admin sees it: `quantity` on hand (held units included), `held` apart. */
type AdminRecord = ProductRecord & { held: number; heldBySize: Record<string, number> };

/** The editable fields, in the order an audit entry lists the changed ones. */
const EDITABLE = [
  'title',
  'description',
  'brand',
  'priceCents',
  'originalPriceCents',
  'images',
  'quantity',
  'sizes',
  'colors',
  'sizeGuide',
  'sizeStock',
  'gender',
  'category',
  'shippingWeight',
] as const satisfies ReadonlyArray<keyof ProductInput>;

function toDraft(record: ProductRecord): ProductInputDraft {
  const draft: Record<string, unknown> = {};
  for (const key of EDITABLE) draft[key] = record[key];
  return draft as ProductInputDraft;
}

function changedFields(before: ProductRecord, after: ProductRecord): string[] {
  return EDITABLE.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

export function createCatalogAdminService(deps: {
  db: Db;
  storage: Storage;
  events: EventHub;
  logger: Logger;
}): CatalogAdminService {
  const repo = createCatalogAdminRepository(deps.db);
  const publicBase = deps.storage.publicBase;

  /** The admin's view of a stored record: units on hand (buyable + held) and the held ones apart. */
  const withHeld = (
    record: ProductRecord,
    held: number,
    heldBySize: Record<string, number> = {},
  ): AdminRecord => ({
    ...record,
    quantity: record.quantity + held,
    sizeStock: sizeStockOnHand(record.sizeStock, heldBySize),
    held,
    heldBySize,
  });

  const heldOf = async (ids: readonly string[], repository = repo) => {
    const [units, bySize] = await Promise.all([
      repository.findHeldUnits(ids),
      repository.findHeldUnitsBySize(ids),
    ]);
    return (id: string) => [units.get(id) ?? 0, bySize.get(id) ?? {}] as const;
  };

  const toDto = ({ held, heldBySize, ...record }: AdminRecord): Product => ({
    ...record,
    reservedQuantity: held,
    ...(record.sizeStock ? { reservedBySize: heldBySize } : {}),
    images: record.images.map((path) => {
      const srcset = imageSrcSet(path, publicBase);
      return { path, url: resolveImageUrl(path, publicBase), ...(srcset ? { srcset } : {}) };
    }),
  });

  /** Every image key not already on the product must be an uploaded object. 400 naming the image. */
  const assertImagesExist = async (images: readonly string[], known: readonly string[] = []) => {
    const fields: Record<string, string> = {};
    await Promise.all(
      images.map(async (key, index) => {
        if (known.includes(key)) return;
        if (!(await deps.storage.exists(key))) fields[`images.${index}`] = 'Image not found: upload it first';
      }),
    );
    const first = Object.entries(fields).sort()[0];
    if (first) throw new AppError('VALIDATION_FAILED', `${first[0]}: ${first[1]}`, fields);
  };

  const announce = async (type: 'product.created' | 'product.updated' | 'product.deleted', id: string) => {
    await deps.events.publish('catalog', { type, data: { id } });
    await deps.events.publish('admin:products', { type, data: { id } });
  };

  const requireId = (id: string) => {
    if (!UUID_PATTERN.test(id)) throw new AppError('NOT_FOUND', NOT_FOUND);
  };

  const replaceInTransaction = async (
    id: string,
    input: ProductInput,
    actor: AdminActor,
    before: AdminRecord,
  ) => {
    // A change that changes nothing writes nothing: no update, no audit entry, no live event.
    if (changedFields(before, { ...before, ...input }).length === 0) return toDto(before);
    await assertImagesExist(input.images, before.images);
    const { product, entry } = await deps.db.transaction().execute(async (trx) => {
      const adminRepo = createCatalogAdminRepository(trx);
      const locked = await adminRepo.lockById(id);
      if (!locked) throw new AppError('NOT_FOUND', NOT_FOUND);
      // Read under the product's row lock: a checkout or a release of this product waits for it.
      const [held, heldBySize] = (await heldOf([id], adminRepo))(id);
      let buyable: Pick<ProductInput, 'quantity' | 'sizeStock'>;
      if (input.sizeStock) {
        // Per size: each size's buyable units are its units on hand less those held in it.
        const sizeStock = sizeStockToStore(input.sizeStock, heldBySize);
        buyable = { quantity: sizeStockTotal(sizeStock), sizeStock };
      } else {
        if (input.quantity < held) {
          const message = `Quantity cannot be less than the ${held} held by open checkouts`;
          throw new AppError('VALIDATION_FAILED', `quantity: ${message}`, { quantity: message });
        }
        // Switching "Stock per size" off keeps the Quantity (the sizes' total) as one quantity.
        buyable = { quantity: input.quantity - held, sizeStock: null };
      }
      const stored = await createCatalogRepository(trx).updateProduct(
        id,
        { ...input, ...buyable },
        new Date(),
      );
      if (!stored) throw new AppError('NOT_FOUND', NOT_FOUND);
      const product = withHeld(stored, held, heldBySize);
      const entry = await recordAudit(
        trx,
        {
          action: 'update_product',
          details: {
            productId: id,
            title: product.title,
            changed: changedFields(before, product),
            success: true,
          },
          actor,
        },
        deps.logger,
      );
      return { product, entry };
    });
    await announce('product.updated', id);
    await announceAudit(deps.events, entry);
    return toDto(product);
  };

  const load = async (id: string): Promise<AdminRecord> => {
    requireId(id);
    const record = await createCatalogRepository(deps.db).findById(id);
    if (!record) throw new AppError('NOT_FOUND', NOT_FOUND);
    return withHeld(record, ...(await heldOf([id]))(id));
  };

  return {
    async list(query) {
      const offset = (query.page - 1) * query.pageSize;
      const { rows, total } = await repo.findPage({
        gender: query.gender === 'all' ? undefined : query.gender,
        category: query.category,
        search: query.search,
        limit: query.pageSize,
        offset,
      });
      return {
        items: await (async () => {
          const held = await heldOf(rows.map((r) => r.id));
          return rows.map((r) => toDto(withHeld(r, ...held(r.id))));
        })(),
        page: query.page,
        pageSize: query.pageSize,
        total,
        hasMore: offset + rows.length < total,
      };
    },

    async categories() {
      const found = await repo.findDistinctCategories();
      return { categories: found.map((value) => ({ value, label: categoryLabel(value) })) };
    },

    async get(id) {
      return toDto(await load(id));
    },

    async create(input, actor) {
      await assertImagesExist(input.images);
      const { product, entry } = await deps.db.transaction().execute(async (trx) => {
        const catalog = createCatalogRepository(trx);
        const now = new Date();
        const id = await catalog.insertProduct({ ...input, createdAt: now, updatedAt: now });
        const product = await catalog.findById(id);
        const entry = await recordAudit(
          trx,
          { action: 'create_product', details: { productId: id, title: input.title, success: true }, actor },
          deps.logger,
        );
        return { product: product!, entry };
      });
      await announce('product.created', product.id);
      await announceAudit(deps.events, entry);
      return toDto(withHeld(product, 0));
    },

    async replace(id, input, actor) {
      const before = await load(id);
      return replaceInTransaction(id, input, actor, before);
    },

    async patch(id, changes, actor) {
      const before = await load(id);
      const merged = { ...toDraft(before), ...changes };
      // Quantities per size sent without a Quantity: their sum is the product's Quantity.
      const perSize = SizeStockSchema.nullish().safeParse(changes.sizeStock);
      if (changes.quantity === undefined && perSize.success && perSize.data) {
        merged.quantity = sizeStockTotal(perSize.data);
      }
      // Validated whole: a gender change without a matching category is a 400 on `category`.
      const input = ProductInputSchema.parse(merged);
      return replaceInTransaction(id, input, actor, before);
    },

    async remove(id, actor) {
      requireId(id);
      const { entry } = await deps.db.transaction().execute(async (trx) => {
        const adminRepo = createCatalogAdminRepository(trx);
        // The row lock makes a checkout reserving this product wait (it updates the same row).
        const locked = await adminRepo.lockById(id);
        if (!locked) throw new AppError('NOT_FOUND', NOT_FOUND);
        if ((await adminRepo.countOpenReservations(id)) > 0) {
          throw new AppError('CONFLICT', ADMIN_MESSAGES.productInCheckout);
        }
        await createCatalogRepository(trx).deleteProduct(id);
        const entry = await recordAudit(
          trx,
          { action: 'delete_product', details: { productId: id, title: locked.title, success: true }, actor },
          deps.logger,
        );
        return { entry };
      });
      await announce('product.deleted', id);
      await announceAudit(deps.events, entry);
      return { ok: true, id };
    },
  };
}
