import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '#common/schemas/admin';
import type { AuditEntry } from '#common/schemas/admin-audit';
import type { Product, ProductInputDraft } from '#common/schemas/product';
import type { LiveEvent } from '#common/schemas/events';
import { createOrder } from '../factories/order';
import { createProduct } from '../factories/product';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, LIVE_WAIT, signInClients, type AdminClients, type ErrorJson } from './admin-test-kit';

describe.each(BACKENDS)('admin products (%s)', (backend) => {
  let t: TestApp;
  let c: AdminClients;
  const events: LiveEvent[] = [];
  let unsubscribe: () => void;

  beforeAll(async () => {
    t = await startTestApp({ backend });
    c = await signInClients(t);
    unsubscribe = t.deps.events.subscribe(['catalog', 'admin:products', 'admin:audit'], (e) =>
      events.push(e),
    );
  });
  afterAll(async () => {
    unsubscribe?.();
    await t?.close();
  });

  let keyCounter = 0;
  /** An object in storage, as POST /api/uploads leaves it. */
  const storedImage = async () => {
    const key = `products/1700000000000-admin${++keyCounter}-800.webp`;
    await t.deps.storage.put(key, new Uint8Array([1, 2, 3]), 'image/webp');
    return key;
  };

  const validInput = async (overrides: Partial<ProductInputDraft> = {}): Promise<ProductInputDraft> => ({
    title: 'Admin Leggings',
    description: 'High-rise, barely worn.',
    brand: 'Aelo Test',
    priceCents: 4800,
    images: [await storedImage()],
    quantity: 7,
    sizes: ['M', 'XS'],
    colors: [' Black ', 'Rose'],
    gender: 'womens',
    category: 'womens-leggings',
    shippingWeight: 0.5,
    ...overrides,
  });

  const storefront = async () => {
    const res = await t.app.request('/api/products');
    return ((await res.json()) as { products: Product[] }).products;
  };

  const auditOf = async (action: string) =>
    (await json<Page<AuditEntry>>(await c.admin.get(`/api/admin/audit?action=${action}`), 200)).items;

  it('creates a product with two uploaded images, shows it on the storefront and audits it', async () => {
    const png = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#e11d48' } })
      .png()
      .toBuffer();
    const uploaded = await json<{ path: string }>(
      await c.admin.request('POST', '/api/uploads', {
        body: new Blob([new Uint8Array(png)], { type: 'image/png' }),
      }),
      201,
    );
    const second = await storedImage();

    await storefront(); // warm the storefront cache: the live event must clear it
    const created = await json<Product>(
      await c.admin.post('/api/admin/products', await validInput({ images: [uploaded.path, second] })),
      201,
    );
    expect(created).toMatchObject({
      title: 'Admin Leggings',
      sizes: ['XS', 'M'],
      colors: ['Black', 'Rose'],
      priceCents: 4800,
      quantity: 7,
    });
    expect(created.images.map((i) => i.path)).toEqual([uploaded.path, second]);
    expect(created.images[0]!.url).toBe(`/uploads/${uploaded.path}`);
    expect(created.createdAt).toBe(created.updatedAt);

    await expect.poll(async () => (await storefront()).map((p) => p.id), LIVE_WAIT).toContain(created.id);
    await expect
      .poll(() => events, LIVE_WAIT)
      .toContainEqual(expect.objectContaining({ topic: 'admin:products', type: 'product.created' }));
    expect(events.some((e) => e.topic === 'catalog' && e.type === 'product.created')).toBe(true);

    const [entry] = await auditOf('create_product');
    expect(entry).toMatchObject({
      action: 'create_product',
      actorId: c.adminId,
      details: {
        productId: created.id,
        title: 'Admin Leggings',
        admin: { id: c.adminId, email: c.adminEmail },
      },
    });
    await expect
      .poll(() => events, LIVE_WAIT)
      .toContainEqual(expect.objectContaining({ topic: 'admin:audit', type: 'audit.logged' }));

    const read = await json<Product>(await c.admin.get(`/api/admin/products/${created.id}`), 200);
    expect(read.images.map((i) => i.path)).toEqual([uploaded.path, second]);
  });

  it('refuses invalid products with the spec messages, verbatim', async () => {
    const cases: Array<[Partial<ProductInputDraft>, string, string]> = [
      [{ title: '' }, 'title', 'Please fill in all required fields'],
      [{ images: [] }, 'images', 'Please fill in all required fields'],
      [{ sizes: [] }, 'sizes', 'Please select at least one size'],
      [{ colors: ['  '] }, 'colors', 'Please add at least one color'],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await c.admin.post('/api/admin/products', await validInput(overrides));
      const body = await json<ErrorJson>(res, 400);
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(body.error.fields?.[field], field).toBe(message);
    }
    const five = await Promise.all([1, 2, 3, 4, 5].map(() => storedImage()));
    const tooMany = await json<ErrorJson>(
      await c.admin.post('/api/admin/products', await validInput({ images: five })),
      400,
    );
    expect(tooMany.error.fields?.images).toBe('Maximum of 4 images allowed');

    const missing = await json<ErrorJson>(
      await c.admin.post(
        '/api/admin/products',
        await validInput({ images: ['products/never-uploaded-800.webp'] }),
      ),
      400,
    );
    expect(missing.error.fields).toEqual({ 'images.0': 'Image not found: upload it first' });
    const mismatch = await json<ErrorJson>(
      await c.admin.post('/api/admin/products', await validInput({ gender: 'mens' })),
      400,
    );
    expect(mismatch.error.fields?.category).toEqual(expect.any(String));
  });

  it('edits a product: updated_at moves, created_at stays, the storefront follows, the audit lists the changes', async () => {
    const product = await createProduct(t.deps.database.db, {
      title: 'Before Edit',
      createdAt: new Date(Date.now() - 86_400_000),
    });
    await storefront();
    // Another price than the factory's, whatever its sequence has reached in this worker.
    const priceCents = product.priceCents + 1_000;
    const input = await validInput({ title: 'After Edit', priceCents, images: product.images });
    const edited = await json<Product>(
      await c.admin.request('PUT', `/api/admin/products/${product.id}`, { json: input }),
      200,
    );
    expect(edited).toMatchObject({ id: product.id, title: 'After Edit', priceCents });
    expect(edited.createdAt).toBe(product.createdAt!.toISOString());
    expect(Date.parse(edited.updatedAt)).toBeGreaterThan(Date.parse(edited.createdAt));

    await expect
      .poll(async () => (await storefront()).find((p) => p.id === product.id)?.title, LIVE_WAIT)
      .toBe('After Edit');
    const [entry] = await auditOf('update_product');
    expect(entry?.details).toMatchObject({
      productId: product.id,
      admin: { id: c.adminId, email: c.adminEmail },
    });
    expect(entry?.details.changed).toEqual(expect.arrayContaining(['title', 'priceCents']));

    const patched = await json<Product>(
      await c.admin.patch(`/api/admin/products/${product.id}`, { quantity: 3 }),
      200,
    );
    expect(patched).toMatchObject({ quantity: 3, title: 'After Edit' });
    const badPatch = await json<ErrorJson>(
      await c.admin.patch(`/api/admin/products/${product.id}`, { gender: 'mens' }),
      400,
    );
    expect(badPatch.error.fields?.category).toEqual(expect.any(String));
    const unknownField = await json<ErrorJson>(
      await c.admin.patch(`/api/admin/products/${product.id}`, { stock: 1 }),
      400,
    );
    expect(unknownField.error.code).toBe('VALIDATION_FAILED');
  });

  it('refuses an empty change and a non-JSON body, and writes nothing for a change that changes nothing', async () => {
    const product = await createProduct(t.deps.database.db, { title: 'Unchanged Tank', quantity: 3 });
    const url = `/api/admin/products/${product.id}`;
    const auditBefore = (await auditOf('update_product')).length;
    events.length = 0;

    const empty = await c.admin.patch(url, {});
    expect((await json<ErrorJson>(empty, 400)).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Send at least one field to change',
    });
    const form = await c.admin.request('PATCH', url, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'title=Hacked',
    });
    expect((await json<ErrorJson>(form, 415)).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const text = await c.admin.request('PATCH', url, {
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(text.status).toBe(415);

    // The same values again: 200 with the product, but no write, no audit, no broadcast.
    const same = await c.admin.patch(url, { title: 'Unchanged Tank', quantity: 3 });
    expect((await json<Product>(same, 200)).title).toBe('Unchanged Tank');

    // A real change still goes through (and is the only one audited and broadcast).
    expect((await c.admin.patch(url, { quantity: 4 })).status).toBe(200);
    // Its audit event is announced last, after its product events: once it is here, any event the
    // change that changed nothing had sent would be here too (one channel, in order).
    await expect
      .poll(() => events, LIVE_WAIT)
      .toContainEqual(
        expect.objectContaining({
          topic: 'admin:audit',
          type: 'audit.logged',
          data: expect.objectContaining({ details: expect.objectContaining({ productId: product.id }) }),
        }),
      );
    const updates = events.filter((e) => e.type === 'product.updated' && e.topic === 'admin:products');
    expect(updates).toHaveLength(1);
    const audits = await auditOf('update_product');
    expect(audits.length - auditBefore).toBe(1);
    expect(audits[0]!.details).toMatchObject({ productId: product.id, changed: ['quantity'] });
  });

  it('lists with gender, category, case-insensitive search and pages; categories come from the data', async () => {
    const db = t.deps.database.db;
    await createProduct(db, {
      title: 'Searchable Trail Shorts',
      gender: 'mens',
      category: 'mens-shorts',
      brand: 'Peak',
    });
    await createProduct(db, {
      title: 'Plain Tee',
      gender: 'mens',
      category: 'mens-tops',
      description: 'Made by SEARCHABLE folks',
    });
    await createProduct(db, {
      title: 'Other',
      gender: 'womens',
      category: 'womens-bras',
      brand: 'searchable co',
    });

    const all = await json<Page<Product>>(await c.admin.get('/api/admin/products?search=SEARCHABLE'), 200);
    expect(all.items.map((p) => p.title).sort()).toEqual(['Other', 'Plain Tee', 'Searchable Trail Shorts']);
    const mens = await json<Page<Product>>(
      await c.admin.get('/api/admin/products?search=searchable&gender=mens'),
      200,
    );
    expect(mens.items.map((p) => p.title).sort()).toEqual(['Plain Tee', 'Searchable Trail Shorts']);
    const shorts = await json<Page<Product>>(
      await c.admin.get('/api/admin/products?category=mens-shorts'),
      200,
    );
    expect(shorts.items.map((p) => p.title)).toEqual(['Searchable Trail Shorts']);

    const page1 = await json<Page<Product>>(await c.admin.get('/api/admin/products?pageSize=2'), 200);
    expect(page1).toMatchObject({ page: 1, pageSize: 2, hasMore: true });
    expect(page1.items).toHaveLength(2);
    const page2 = await json<Page<Product>>(await c.admin.get('/api/admin/products?pageSize=2&page=2'), 200);
    expect(page2.items[0]!.id).not.toBe(page1.items[0]!.id);
    expect(page2.total).toBe(page1.total);
    // Newest first.
    expect(Date.parse(page1.items[0]!.createdAt)).toBeGreaterThanOrEqual(
      Date.parse(page1.items[1]!.createdAt),
    );

    const categories = await json<{ categories: Array<{ value: string; label: string }> }>(
      await c.admin.get('/api/admin/product-categories'),
      200,
    );
    expect(categories.categories).toEqual(
      expect.arrayContaining([
        { value: 'mens-shorts', label: 'Mens Shorts' },
        { value: 'womens-bras', label: 'Womens Bras' },
      ]),
    );
    expect(categories.categories.map((x) => x.value)).not.toContain('mens-hoodies');
  });

  it('answers 400 naming the field for bad list queries, 404 for unknown products', async () => {
    for (const [query, field] of [
      ['page=abc', 'page'],
      ['page=0', 'page'],
      ['pageSize=1000', 'pageSize'],
      ['gender=kids', 'gender'],
      ['category=shoes', 'category'],
    ] as const) {
      const body = await json<ErrorJson>(await c.admin.get(`/api/admin/products?${query}`), 400);
      expect(body.error.fields?.[field], query).toEqual(expect.any(String));
    }
    for (const id of ['123e4567-e89b-42d3-a456-426614174000', 'not-a-uuid']) {
      const body = await json<ErrorJson>(await c.admin.get(`/api/admin/products/${id}`), 404);
      expect(body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Product not found' });
      await json(await c.admin.delete(`/api/admin/products/${id}`), 404);
    }
  });

  it('deletes a product: refused while a checkout holds it, then order items keep their snapshot', async () => {
    const db = t.deps.database.db;
    const product = await createProduct(db, { title: 'Doomed Jacket', category: 'womens-jackets' });
    const order = await createOrder(db, {
      items: [{ productId: product.id, title: 'Doomed Jacket', priceCents: 9000 }],
    });
    const payment = await db
      .insertInto('payments')
      .values({
        reference: `ref-${product.id}`,
        method: 'card',
        subtotal_cents: 9000,
        shipping_cents: 0,
        amount_cents: 9000,
        lines: JSON.stringify([]),
        shipping_info: JSON.stringify({}),
        expires_at: new Date(Date.now() + 300_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const reservation = await db
      .insertInto('stock_reservations')
      .values({
        payment_id: payment.id,
        product_id: product.id,
        quantity: 1,
        expires_at: new Date(Date.now() + 300_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const refused = await json<ErrorJson>(await c.admin.delete(`/api/admin/products/${product.id}`), 409);
    expect(refused.error.message).toBe('This product is in an open checkout; try again in a few minutes');

    await db
      .updateTable('stock_reservations')
      .set({ released_at: new Date() })
      .where('id', '=', reservation.id)
      .execute();
    expect(await json(await c.admin.delete(`/api/admin/products/${product.id}`), 200)).toEqual({
      ok: true,
      id: product.id,
    });
    expect((await t.app.request(`/api/products/${product.id}`)).status).toBe(404);
    await expect.poll(async () => (await storefront()).map((p) => p.id), LIVE_WAIT).not.toContain(product.id);

    const items = await db.selectFrom('order_items').selectAll().where('order_id', '=', order.id).execute();
    expect(items).toMatchObject([{ product_id: null, title: 'Doomed Jacket', price_cents: 9000 }]);
    const [entry] = await auditOf('delete_product');
    expect(entry?.details).toMatchObject({
      productId: product.id,
      title: 'Doomed Jacket',
      admin: { id: c.adminId },
    });
    // On PostgreSQL the event arrives through LISTEN/NOTIFY, after the delete has answered.
    await expect
      .poll(() => events, LIVE_WAIT)
      .toContainEqual(expect.objectContaining({ topic: 'catalog', type: 'product.deleted' }));
  });
});
