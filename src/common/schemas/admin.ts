import { z } from 'zod';

/**
 * The admin back-office contract: every /api/admin route below, with its query/body
 * schema and response DTO in `admin-<resource>.ts` beside this file; this file holds what they
 * share (paths, messages, pagination). The server validates with these schemas; the admin screens call the same paths and
 * may parse the answers with the response schemas.
 *
 * Every /api/admin/* route answers 401 `UNAUTHENTICATED` without a session and 403 `FORBIDDEN`
 * for a signed-in user who is not an admin. Errors are `{ error: { code, message, fields? } }`;
 * a bad query or body is 400 `VALIDATION_FAILED` with `fields` naming the field.
 *
 * Money is integer cents (`...Cents`); SOL amounts are lamports as decimal strings
 * (`...Lamports`) with a display number in SOL beside them. Times are ISO-8601 UTC strings. Days
 * (`date`) are UTC calendar days `YYYY-MM-DD`.
 *
 * Routes (all JSON):
 *   GET    /api/admin/dashboard                          -> AdminDashboard
 *   GET    /api/admin/products?gender&search&category&page&pageSize -> AdminProductPage
 *   GET    /api/admin/product-categories                -> AdminCategoryList
 *   GET    /api/admin/products/:id                       -> Product (images with path + url)
 *   POST   /api/admin/products        ProductInput       -> 201 Product
 *   PUT    /api/admin/products/:id    ProductInput       -> Product (full replacement)
 *   PATCH  /api/admin/products/:id    Partial<ProductInput draft> -> Product (merged, then validated whole)
 *   DELETE /api/admin/products/:id                       -> AdminDeleted (409 CONFLICT while in an open checkout)
 *   GET    /api/admin/orders?search&status&page&pageSize -> AdminOrderPage
 *   GET    /api/admin/orders/:id                         -> AdminOrder
 *   PATCH  /api/admin/orders/:id      AdminOrderUpdate   -> AdminOrder
 *   DELETE /api/admin/orders/:id                         -> AdminDeleted
 *   GET    /api/admin/customers?search&sort&page&pageSize -> AdminCustomerPage
 *   GET    /api/admin/analytics                          -> AdminAnalytics
 *   GET    /api/admin/audit?search&action&page&pageSize  -> AuditEntryPage
 *   GET    /api/admin/audit/actions                      -> AuditActionList
 *   GET    /api/admin/airdrops?search&age&page&pageSize  -> AdminAirdrops
 *   GET    /api/admin/airdrops/preview  -> AirdropProcessResult (what a run would pay now; 503 without an engine)
 *   POST   /api/admin/airdrops/process  (empty body or {}) -> AirdropProcessResult
 *                                                           (503 NOT_CONFIGURED 'No airdrop engine is configured' for now)
 *   GET    /api/admin/messages?search&status&priority&page&pageSize -> AdminMessagePage
 *   PATCH  /api/admin/messages/:id/status    { status }  -> AdminMessage (409 CONFLICT from archived / backwards)
 *   PATCH  /api/admin/messages/:id/priority  { priority } -> AdminMessage
 *   GET    /api/admin/settings                           -> AdminSettingList
 *   PUT    /api/admin/settings/:provider/:keyName { value } -> AdminSetting (masked)
 *   DELETE /api/admin/settings/:provider/:keyName         -> AdminSetting (masked, the fallback)
 *
 * Live events (GET /api/events?topics=...): 'admin:products' and 'catalog' get product.created /
 * product.updated / product.deleted ({ id }); 'admin:orders' gets order.updated ({ id }) and, for a
 * deleted order, changed ({ id, deleted: true }); 'admin:audit' gets audit.logged with the
 * AuditEntry as data (prepend it); 'admin:messages' gets message.updated ({ id }); the owner's
 * 'orders:me' / 'tickets:me' get the same order / message events.
 */

export const ADMIN_API = {
  dashboard: '/api/admin/dashboard',
  products: '/api/admin/products',
  productCategories: '/api/admin/product-categories',
  product: (id: string) => `/api/admin/products/${encodeURIComponent(id)}`,
  orders: '/api/admin/orders',
  order: (id: string) => `/api/admin/orders/${encodeURIComponent(id)}`,
  refundSignRequest: (id: string) => `/api/admin/refunds/${encodeURIComponent(id)}/sign-request`,
  customers: '/api/admin/customers',
  analytics: '/api/admin/analytics',
  audit: '/api/admin/audit',
  auditActions: '/api/admin/audit/actions',
  airdrops: '/api/admin/airdrops',
  airdropPreview: '/api/admin/airdrops/preview',
  processAirdrop: '/api/admin/airdrops/process',
  tokenPurchases: '/api/admin/token-purchases',
  messages: '/api/admin/messages',
  messageStatus: (id: string) => `/api/admin/messages/${encodeURIComponent(id)}/status`,
  messagePriority: (id: string) => `/api/admin/messages/${encodeURIComponent(id)}/priority`,
  settings: '/api/admin/settings',
  setting: (provider: string, keyName: string) =>
    `/api/admin/settings/${encodeURIComponent(provider)}/${encodeURIComponent(keyName)}`,
} as const;

// Messages the admin spec quotes verbatim (the server uses the ones it can produce) -------------------

export const ADMIN_MESSAGES = {
  orderUpdated: 'Order updated successfully',
  orderDeleted: 'Order deleted successfully',
  confirmDeleteOrder: 'Are you sure you want to delete this order? This action cannot be undone.',
  confirmDeleteProduct: 'Are you sure you want to delete this product?',
  noProducts: 'No products found matching your criteria.',
  noAuditEntries: 'No audit log entries found',
  configUpdated: 'Configuration updated successfully',
  noAirdropEngine: 'No airdrop engine is configured',
  archivedFinal: 'Archived messages cannot be changed',
  productInCheckout: 'This product is in an open checkout; try again in a few minutes',
  nothingToUpdate: 'Nothing to update',
} as const;

// Pagination -----------------------------------------------------------------------------------------

export const ADMIN_PAGE_SIZE = 50;
export const ADMIN_MAX_PAGE_SIZE = 200;
/** Pages past this are refused (offset pagination; narrow the search instead). */
export const ADMIN_MAX_PAGE = 10_000;
export const ADMIN_SEARCH_MAX_LENGTH = 200;

const page = z.coerce
  .number('page must be a number')
  .int('page must be a whole number')
  .min(1, 'page must be 1 or more')
  .max(ADMIN_MAX_PAGE, `page must be at most ${ADMIN_MAX_PAGE}`)
  .default(1);
const pageSize = z.coerce
  .number('pageSize must be a number')
  .int('pageSize must be a whole number')
  .min(1, 'pageSize must be 1 or more')
  .max(ADMIN_MAX_PAGE_SIZE, `pageSize must be at most ${ADMIN_MAX_PAGE_SIZE}`)
  .default(ADMIN_PAGE_SIZE);
/** The `search` query of a list: trimmed; '' when absent. */
export const AdminSearchSchema = z
  .string()
  .trim()
  .max(ADMIN_SEARCH_MAX_LENGTH, `search must be at most ${ADMIN_SEARCH_MAX_LENGTH} characters`)
  .optional()
  .transform((v) => v ?? '');

export const PageQuerySchema = z.object({ page, pageSize });

/**
 * One page of a list. `total` is the number of matching rows, or null where counting would cost
 * more than the page itself (order and customer searches); `hasMore` is always exact.
 */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.int(),
    pageSize: z.int(),
    total: z.int().nullable(),
    hasMore: z.boolean(),
  });
}
export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number | null;
  hasMore: boolean;
}

export const AdminDeletedSchema = z.object({ ok: z.literal(true), id: z.string() });
export type AdminDeleted = z.infer<typeof AdminDeletedSchema>;

/** Route parameter of a uuid resource: anything else is 404 (never a database error). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
