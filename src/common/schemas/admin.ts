import { z } from 'zod';
import { PaymentMethodSchema } from './checkout';
import { CategorySchema, GenderSchema, ProductSchema } from './product';

/**
 * The admin back-office contract (issue 5): every /api/admin route, its query/body schema and its
 * response DTO. The server validates with these schemas; the admin screens call the same paths and
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
 *   GET    /api/admin/products/categories                -> AdminCategoryList
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
 *   POST   /api/admin/airdrops/process  (empty body or {}) -> AirdropProcessResult
 *                                                           (503 NOT_CONFIGURED 'No airdrop engine is configured' for now)
 *   GET    /api/admin/messages?search&status&priority&page&pageSize -> AdminMessagePage
 *   PATCH  /api/admin/messages/:id/status    { status }  -> AdminMessage (409 CONFLICT from archived / backwards)
 *   PATCH  /api/admin/messages/:id/priority  { priority } -> AdminMessage
 *   GET    /api/admin/settings                           -> AdminSettingList
 *   PUT    /api/admin/settings/:provider/:keyName { value } -> AdminSetting (masked)
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
  productCategories: '/api/admin/products/categories',
  product: (id: string) => `/api/admin/products/${encodeURIComponent(id)}`,
  orders: '/api/admin/orders',
  order: (id: string) => `/api/admin/orders/${encodeURIComponent(id)}`,
  customers: '/api/admin/customers',
  analytics: '/api/admin/analytics',
  audit: '/api/admin/audit',
  auditActions: '/api/admin/audit/actions',
  airdrops: '/api/admin/airdrops',
  processAirdrop: '/api/admin/airdrops/process',
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
/** Trimmed; '' when absent. */
const search = z
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

// Orders ---------------------------------------------------------------------------------------------

export const ORDER_STATUSES = ['pending', 'shipped', 'completed', 'failed'] as const;
export const OrderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pending',
  shipped: 'Shipped',
  completed: 'Completed',
  failed: 'Failed',
};

export const AdminOrdersQuerySchema = z.object({
  search,
  status: z.enum(['all', ...ORDER_STATUSES]).default('all'),
  page,
  pageSize,
});
export type AdminOrdersQuery = z.output<typeof AdminOrdersQuerySchema>;

export const AdminShippingInfoSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  country: z.string(),
});
export type AdminShippingInfo = z.infer<typeof AdminShippingInfoSchema>;

export const AdminOrderItemSchema = z.object({
  id: z.string(),
  /** null once the product was deleted: the line keeps its snapshot. */
  productId: z.string().nullable(),
  title: z.string(),
  /** Storage key or absolute URL as stored; `imageUrl` is ready for <img src>. */
  image: z.string(),
  imageUrl: z.string(),
  category: z.string(),
  size: z.string().nullable(),
  color: z.string().nullable(),
  quantity: z.int(),
  priceCents: z.int(),
});
export type AdminOrderItem = z.infer<typeof AdminOrderItemSchema>;

export const AdminOrderSchema = z.object({
  id: z.string(),
  /** First 8 characters of the id (spec §9). */
  shortId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  status: OrderStatusSchema,
  trackingNumber: z.string().nullable(),
  paymentMethod: PaymentMethodSchema,
  subtotalCents: z.int(),
  shippingCents: z.int(),
  discountCents: z.int(),
  /** What the customer paid. */
  amountCents: z.int(),
  transactionSignature: z.string().nullable(),
  /** Block-explorer link for the transaction, when there is one. */
  explorerUrl: z.string().nullable(),
  refundRequired: z.boolean(),
  refundReason: z.string().nullable(),
  userId: z.string().nullable(),
  shippingInfo: AdminShippingInfoSchema,
  items: z.array(AdminOrderItemSchema),
});
export type AdminOrder = z.infer<typeof AdminOrderSchema>;
export const AdminOrderPageSchema = pageSchema(AdminOrderSchema);
export type AdminOrderPage = Page<AdminOrder>;

export const TRACKING_NUMBER_MAX_LENGTH = 100;

/**
 * The order edit form. As the spec's client: a value is applied only when non-empty (blank or
 * missing fields leave the stored value alone); at least one must be given.
 */
export const AdminOrderUpdateSchema = z
  .object({
    status: z
      .union([OrderStatusSchema, z.literal('')])
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
    trackingNumber: z
      .string()
      .trim()
      .max(
        TRACKING_NUMBER_MAX_LENGTH,
        `Tracking number must be at most ${TRACKING_NUMBER_MAX_LENGTH} characters`,
      )
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
  })
  .refine((v) => v.status !== undefined || v.trackingNumber !== undefined, {
    message: ADMIN_MESSAGES.nothingToUpdate,
    path: ['status'],
  });
export type AdminOrderUpdate = z.output<typeof AdminOrderUpdateSchema>;

// Products -------------------------------------------------------------------------------------------

export const AdminProductsQuerySchema = z.object({
  gender: z.union([z.literal('all'), GenderSchema]).default('all'),
  search,
  category: z
    .union([CategorySchema, z.literal('all'), z.literal('')])
    .optional()
    .transform((c) => (c === 'all' || c === '' || c === undefined ? undefined : c)),
  page,
  pageSize,
});
export type AdminProductsQuery = z.output<typeof AdminProductsQuerySchema>;

export const AdminProductPageSchema = pageSchema(ProductSchema);

/**
 * PATCH /api/admin/products/:id: any subset of the ProductInput fields (unknown keys refused). The
 * server merges them into the stored product and validates the whole with ProductInputSchema.
 */
export const AdminProductPatchSchema = z
  .strictObject({
    title: z.unknown(),
    description: z.unknown(),
    brand: z.unknown(),
    priceCents: z.unknown(),
    originalPriceCents: z.unknown(),
    images: z.unknown(),
    quantity: z.unknown(),
    sizes: z.unknown(),
    colors: z.unknown(),
    sizeGuide: z.unknown(),
    gender: z.unknown(),
    category: z.unknown(),
    shippingWeight: z.unknown(),
  })
  .partial()
  .refine((changes) => Object.keys(changes).length > 0, 'Send at least one field to change');
export type AdminProductPatch = z.infer<typeof AdminProductPatchSchema>;

/** Categories found in the data: `label` as the spec's dropdown shows it ('Womens Leggings'). */
export const AdminCategoryListSchema = z.object({
  categories: z.array(z.object({ value: z.string(), label: z.string() })),
});
export type AdminCategoryList = z.infer<typeof AdminCategoryListSchema>;

// Customers ------------------------------------------------------------------------------------------

export const CUSTOMER_SORTS = ['last_order', 'total_spent', 'total_orders'] as const;
export const CUSTOMER_SORT_LABELS: Record<(typeof CUSTOMER_SORTS)[number], string> = {
  last_order: 'Last Order Date',
  total_spent: 'Total Spent',
  total_orders: 'Total Orders',
};

export const AdminCustomersQuerySchema = z.object({
  search,
  sort: z
    .enum(CUSTOMER_SORTS, 'sort must be one of last_order, total_spent, total_orders')
    .default('last_order'),
  page,
  pageSize,
});
export type AdminCustomersQuery = z.output<typeof AdminCustomersQuerySchema>;

/** One customer: the orders with this shipping email; the name is the latest order's. */
export const AdminCustomerSchema = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** Every order, failed ones included. */
  totalOrders: z.int(),
  /** Sum of amounts paid, failed (refunded) orders excluded. */
  totalSpentCents: z.int(),
  lastOrderAt: z.string(),
});
export type AdminCustomer = z.infer<typeof AdminCustomerSchema>;
export const AdminCustomerPageSchema = pageSchema(AdminCustomerSchema);
export type AdminCustomerPage = Page<AdminCustomer>;

// Dashboard ------------------------------------------------------------------------------------------

export const DASHBOARD_RECENT_ORDERS = 5;
export const DASHBOARD_RECENT_AUDIT = 10;
export const DASHBOARD_SALES_DAYS = 7;

/**
 * A stat card: the all-time value and the week-over-week trend in percent (1 decimal): the last
 * 7 UTC days (today included) against the 7 before; null when the earlier week had none.
 */
export const DashboardStatSchema = z.object({ value: z.number(), trend: z.number().nullable() });
export type DashboardStat = z.infer<typeof DashboardStatSchema>;

export const DailySalesSchema = z.object({
  /** UTC day, YYYY-MM-DD. Every day of the range is present; days without sales are zero. */
  date: z.string(),
  /** Sum of price x quantity over the day's order items (failed orders excluded). */
  revenueCents: z.int(),
  /** Orders placed that day (all statuses). */
  orders: z.int(),
});
export type DailySales = z.infer<typeof DailySalesSchema>;

export const RecentOrderSchema = z.object({
  id: z.string(),
  shortId: z.string(),
  createdAt: z.string(),
  amountCents: z.int(),
  status: OrderStatusSchema,
});
export type RecentOrder = z.infer<typeof RecentOrderSchema>;

// Audit ----------------------------------------------------------------------------------------------

/** Every action the back office records (the first four are the spec's). */
export const AUDIT_ACTIONS = [
  'update_order',
  'delete_order',
  'process_airdrop',
  'update_api_config',
  'create_product',
  'update_product',
  'delete_product',
  'update_message_status',
  'update_message_priority',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEntrySchema = z.object({
  id: z.string(),
  action: z.string(),
  /** Always includes `admin: { id, email }` (the acting admin) for entries the back office writes. */
  details: z.record(z.string(), z.unknown()),
  actorId: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditEntryPageSchema = pageSchema(AuditEntrySchema);
export type AuditEntryPage = Page<AuditEntry>;

export const AuditQuerySchema = z.object({
  /** Matches the action and the details' text, case-insensitive. */
  search,
  action: z
    .string()
    .trim()
    .max(100, 'action must be at most 100 characters')
    .regex(/^[a-z0-9_]*$/, 'action must be an action name')
    .optional()
    .transform((v) => (v === undefined || v === '' || v === 'all' ? undefined : v)),
  page,
  pageSize,
});
export type AuditQuery = z.output<typeof AuditQuerySchema>;

export const AuditActionListSchema = z.object({ actions: z.array(z.string()) });
export type AuditActionList = z.infer<typeof AuditActionListSchema>;

export const AdminDashboardSchema = z.object({
  totals: z.object({
    orders: DashboardStatSchema,
    products: DashboardStatSchema,
    /** Distinct shipping emails; trend compares customers whose first order fell in each week. */
    customers: DashboardStatSchema,
    /** Sum of price x quantity over all order items, failed orders excluded. */
    revenueCents: DashboardStatSchema,
  }),
  /** The last 7 UTC days, oldest first, today last. */
  salesOverview: z.array(DailySalesSchema),
  /** The 5 newest orders. */
  recentOrders: z.array(RecentOrderSchema),
  /** The 10 newest audit entries. */
  recentAudit: z.array(AuditEntrySchema),
  generatedAt: z.string(),
});
export type AdminDashboard = z.infer<typeof AdminDashboardSchema>;

// Analytics ------------------------------------------------------------------------------------------

export const ANALYTICS_DAYS = 30;
export const RETENTION_SEGMENTS = [
  { segment: 'one_time', label: 'One-time' },
  { segment: 'returning', label: 'Returning' },
  { segment: 'loyal', label: 'Loyal' },
] as const;
export type RetentionSegment = (typeof RETENTION_SEGMENTS)[number]['segment'];

export const AdminAnalyticsSchema = z.object({
  /** The last 30 UTC days, oldest first, zero-filled. */
  dailySales: z.array(DailySalesSchema),
  /** From order_items.category, failed orders excluded; most revenue first. */
  categories: z.array(
    z.object({ category: z.string(), label: z.string(), quantity: z.int(), revenueCents: z.int() }),
  ),
  /** Per payment method: number of orders (all) and amount paid (failed orders excluded). */
  paymentMethods: z.array(z.object({ method: PaymentMethodSchema, orders: z.int(), amountCents: z.int() })),
  /** Customers by number of orders: One-time = 1, Returning = 2, Loyal = 3 or more. Always three rows. */
  retention: z.array(
    z.object({ segment: z.enum(['one_time', 'returning', 'loyal']), label: z.string(), customers: z.int() }),
  ),
  generatedAt: z.string(),
});
export type AdminAnalytics = z.infer<typeof AdminAnalyticsSchema>;

// Airdrops -------------------------------------------------------------------------------------------

export const AIRDROP_AGES = ['24h', '7d', 'older'] as const;
export type AirdropAge = (typeof AIRDROP_AGES)[number];

export const AdminAirdropsQuerySchema = z.object({
  /** Wallet address or claim id, case-insensitive substring. */
  search,
  /** Spec §4 buckets: 24h = under 24 hours, 7d = 24 to 168 hours, older = 168 hours or more. */
  age: z.enum(['all', ...AIRDROP_AGES]).default('all'),
  page,
  pageSize,
});
export type AdminAirdropsQuery = z.output<typeof AdminAirdropsQuerySchema>;

export const AirdropClaimSchema = z.object({
  id: z.string(),
  walletAddress: z.string(),
  amountLamports: z.string(),
  /** For display (2 decimals). */
  amountSol: z.number(),
  createdAt: z.string(),
  age: z.enum(AIRDROP_AGES),
  status: z.literal('Claimed'),
});
export type AirdropClaim = z.infer<typeof AirdropClaimSchema>;

export const AdminAirdropsSchema = z.object({
  claims: pageSchema(AirdropClaimSchema),
  /** Over every claim (not only the filtered ones). */
  stats: z.object({
    totalClaims: z.int(),
    totalLamports: z.string(),
    totalSol: z.number(),
    uniqueWallets: z.int(),
  }),
});
export type AdminAirdrops = z.infer<typeof AdminAirdropsSchema>;

/** POST /api/admin/airdrops/process: no parameters (an empty body or {}). */
export const AirdropProcessInputSchema = z.strictObject({});
export const AirdropProcessResultSchema = z.object({
  recipients: z.int(),
  totalAmountLamports: z.string(),
  totalAmountSol: z.number(),
});
export type AirdropProcessResult = z.infer<typeof AirdropProcessResultSchema>;

// Messages -------------------------------------------------------------------------------------------

export const MESSAGE_STATUSES = ['unread', 'read', 'archived'] as const;
export const MessageStatusSchema = z.enum(MESSAGE_STATUSES);
export type MessageStatus = z.infer<typeof MessageStatusSchema>;
export const MESSAGE_PRIORITIES = ['high', 'normal', 'low'] as const;
export const MessagePrioritySchema = z.enum(MESSAGE_PRIORITIES);
export type MessagePriority = z.infer<typeof MessagePrioritySchema>;

export const AdminMessagesQuerySchema = z.object({
  /** Subject, content and sender email, case-insensitive. */
  search,
  status: z.enum(['all', ...MESSAGE_STATUSES]).default('all'),
  priority: z.enum(['all', ...MESSAGE_PRIORITIES]).default('all'),
  page,
  pageSize,
});
export type AdminMessagesQuery = z.output<typeof AdminMessagesQuerySchema>;

export const AdminMessageSchema = z.object({
  id: z.string(),
  userId: z.string(),
  senderEmail: z.string().nullable(),
  subject: z.string(),
  content: z.string(),
  category: z.string(),
  status: MessageStatusSchema,
  priority: MessagePrioritySchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminMessage = z.infer<typeof AdminMessageSchema>;
export const AdminMessagePageSchema = pageSchema(AdminMessageSchema);
export type AdminMessagePage = Page<AdminMessage>;

/** unread -> read -> archived, forward only; archived is final (409). Same status: no change. */
export const MessageStatusUpdateSchema = z.object({ status: MessageStatusSchema });
export const MessagePriorityUpdateSchema = z.object({ priority: MessagePrioritySchema });

// Settings -------------------------------------------------------------------------------------------

/**
 * The API configurations the settings screen lists (a fixed catalogue: values for other keys are
 * refused). `kind: 'url'` values must be http(s) URLs.
 */
export const SETTING_KEYS = [
  { provider: 'stripe', keyName: 'secret_key', label: 'Stripe secret key', kind: 'secret' },
  { provider: 'stripe', keyName: 'publishable_key', label: 'Stripe publishable key', kind: 'secret' },
  { provider: 'stripe', keyName: 'webhook_secret', label: 'Stripe webhook signing secret', kind: 'secret' },
  { provider: 'carrier', keyName: 'api_key', label: 'Shipping carrier API key', kind: 'secret' },
  { provider: 'market', keyName: 'price_url', label: 'SOL price feed URL', kind: 'url' },
  { provider: 'market', keyName: 'dex_url', label: 'Token market feed URL', kind: 'url' },
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const SETTING_VALUE_MAX_LENGTH = 2000;

export const AdminSettingSchema = z.object({
  provider: z.string(),
  keyName: z.string(),
  label: z.string(),
  kind: z.enum(['secret', 'url']),
  /** e.g. '••••••••4242' (at most the last 4 characters); null when unset. Never the full value. */
  maskedValue: z.string().nullable(),
  isSet: z.boolean(),
  /** Where the effective value comes from: these settings, the server environment, or nowhere. */
  source: z.enum(['settings', 'environment', 'unset']),
  updatedAt: z.string().nullable(),
});
export type AdminSetting = z.infer<typeof AdminSettingSchema>;
export const AdminSettingListSchema = z.object({ settings: z.array(AdminSettingSchema) });
export type AdminSettingList = z.infer<typeof AdminSettingListSchema>;

export const AdminSettingUpdateSchema = z.object({
  value: z
    .string('Please enter a value')
    .trim()
    .min(1, 'Please enter a value')
    .max(SETTING_VALUE_MAX_LENGTH, `The value must be at most ${SETTING_VALUE_MAX_LENGTH} characters`),
});
export type AdminSettingUpdate = z.infer<typeof AdminSettingUpdateSchema>;

export const SettingParamsSchema = z.object({
  provider: z.string().max(50),
  keyName: z.string().max(100),
});

/** Route parameter of a uuid resource: anything else is 404 (never a database error). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Display helpers ------------------------------------------------------------------------------------

export const LAMPORTS_PER_SOL = 1_000_000_000;

/** A lamport amount (decimal string or bigint) in SOL, for display only. */
export function lamportsToSol(lamports: string | bigint): number {
  const value = typeof lamports === 'bigint' ? lamports : BigInt(lamports || '0');
  const whole = value / BigInt(LAMPORTS_PER_SOL);
  const rest = value % BigInt(LAMPORTS_PER_SOL);
  return Number(whole) + Number(rest) / LAMPORTS_PER_SOL;
}

/** The spec's wallet display: first 8 and last 8 characters. */
export function shortWallet(address: string): string {
  return address.length <= 19 ? address : `${address.slice(0, 8)}...${address.slice(-8)}`;
}

/** Week-over-week change in percent with 1 decimal; null without a baseline. */
export function trendPercent(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}
