import type { ColumnType, Generated, JSONColumnType } from 'kysely';
// The column types of the shared vocabularies come from src/common (one definition each).
import type { OrderStatus } from '#common/schemas/admin-orders';
import type { PaymentMethod } from '#common/schemas/checkout';
import type { CreatedAt, Numeric, Timestamp } from './column-types';
import type {
  AirdropBatchesTable,
  AirdropClaimsTable,
  AirdropRunsTable,
  AirdropFirstSeenTable,
  AirdropScheduleTable,
  HolderSnapshotsTable,
  RewardPoolEntriesTable,
} from './schema-rewards';
import type {
  UsersTable,
  SessionsTable,
  AccountsTable,
  VerificationsTable,
  RateLimitsTable,
  TwoFactorsTable,
} from './schema-auth';
import type {
  AdminDailyStatsTable,
  ProductCountsTable,
  AdminCategoryStatsTable,
  AdminCustomerStatsTable,
  AdminOrderSearchTable,
  AdminOrderStatusStatsTable,
} from './schema-admin-stats';

export type { AirdropKind } from './schema-rewards';

/**
 * Kysely table types, one per table of db/migrations. Rows never leave a repository: DTOs do.
 * better-auth's tables are in schema-auth.ts, the admin summary tables in schema-admin-stats.ts,
 * the holder-rewards ones in schema-rewards.ts; `DB` below names them all.
 */

export interface SizeGuide {
  waist?: string[];
  hip?: string[];
  bust?: string[];
}

export interface ProductsTable {
  id: Generated<string>;
  title: string;
  description: Generated<string>;
  brand: string;
  price_cents: number;
  original_price_cents: number | null;
  images: string[];
  quantity: number;
  sizes: Generated<string[]>;
  colors: Generated<string[]>;
  size_guide: JSONColumnType<SizeGuide> | null;
  /** Buyable units per offered size when sizes are tracked apart (sum = quantity); null: one shared quantity. */
  size_stock: JSONColumnType<Record<string, number>> | null;
  gender: 'womens' | 'mens';
  category: string;
  shipping_weight: Numeric;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type PaymentStatus = 'pending' | 'confirmed' | 'expired' | 'failed' | 'cancelled';

export interface PaymentsTable {
  id: Generated<string>;
  reference: string;
  method: PaymentMethod;
  status: Generated<PaymentStatus>;
  subtotal_cents: number;
  shipping_cents: number;
  discount_cents: Generated<number>;
  amount_cents: number;
  crypto_amount: Numeric | null;
  crypto_mint: string | null;
  recipient: string | null;
  lines: JSONColumnType<unknown[]>;
  shipping_info: JSONColumnType<Record<string, string>>;
  user_id: string | null;
  stripe_session_id: string | null;
  /** 0002_checkout.sql: the card payment's intent, and the account to create with the order. */
  stripe_payment_intent_id: string | null;
  account_password_hash: string | null;
  account_outcome: 'created' | 'existing' | null;
  transaction_signature: string | null;
  error: string | null;
  expires_at: Timestamp;
  confirmed_at: Timestamp | null;
  /** 0008_checkout_holds.sql: who started the checkout (limits on what one client may hold). */
  client_ip: string | null;
  cart_id: string | null;
  /** 0028_client_networks.sql: the client it is counted as (an IPv6 /64) and its network (an IPv6 /56). */
  client_key: string | null;
  client_network: string | null;
  /** 0009_crypto_payments.sql: the USD price per coin the crypto amount was quoted at; the watcher's lease. */
  crypto_price_usd: string | null;
  watch_lease_until: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** 0009_crypto_payments.sql: Buy Token purchases. */
export interface TokenPurchasesTable {
  id: Generated<string>;
  reference: string;
  status: Generated<'pending' | 'completed' | 'expired'>;
  usd_cents: number;
  lamports: Numeric;
  token_amount: Numeric;
  sol_price_usd: string;
  token_price_usd: string;
  buyer: string | null;
  transaction_base64: string | null;
  blockhash: string | null;
  last_valid_block_height: Numeric | null;
  transaction_signature: string | null;
  client_ip: string | null;
  user_id: string | null;
  watch_lease_until: Timestamp | null;
  expires_at: Timestamp;
  completed_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** 0010_mail_outbox.sql: every mail, written before it is sent (one per event key). */
export interface MailOutboxTable {
  id: Generated<string>;
  event_key: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: Generated<'pending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  last_error: string | null;
  sent_at: Timestamp | null;
  created_at: CreatedAt;
  /** 0029_order_mails.sql: the order a mail is about, and which of its mails it is (ORDER_MAIL_KINDS). */
  order_id: string | null;
  kind: string | null;
}

export interface PaymentEventsTable {
  id: Generated<string>;
  payment_id: string;
  from_status: string | null;
  to_status: string;
  detail: JSONColumnType<Record<string, unknown>>;
  created_at: CreatedAt;
}

export interface StockReservationsTable {
  id: Generated<string>;
  payment_id: string;
  product_id: string;
  /** The line's size the hold was taken for (null: older holds, products without sizes). */
  size: string | null;
  quantity: number;
  expires_at: Timestamp;
  released_at: Timestamp | null;
  consumed_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface OrdersTable {
  id: Generated<string>;
  payment_id: string | null;
  user_id: string | null;
  status: Generated<OrderStatus>;
  payment_method: PaymentMethod;
  subtotal_cents: number;
  shipping_cents: number;
  discount_cents: Generated<number>;
  amount_cents: number;
  shipping_info: JSONColumnType<Record<string, string>>;
  shipping_email: string;
  tracking_number: string | null;
  transaction_signature: string | null;
  refund_required: Generated<boolean>;
  refund_reason: string | null;
  /** Paid with test money: crypto on the local demo ledger, or a card in Stripe's test mode (0025). */
  demo: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface OrderItemsTable {
  id: Generated<string>;
  order_id: string;
  product_id: string | null;
  title: string;
  image: string;
  category: string;
  size: string | null;
  color: string | null;
  quantity: number;
  price_cents: number;
}

export interface MessagesTable {
  id: Generated<string>;
  /** Null for a guest's ticket (the contact form): guest_name and guest_email are set instead. */
  user_id: string | null;
  subject: string;
  content: string;
  category: Generated<string>;
  status: Generated<'unread' | 'read' | 'archived'>;
  priority: Generated<'high' | 'normal' | 'low'>;
  /** Seconds from created_at to the first admin reply. */
  response_time: number | null;
  /** Seconds from created_at to the admin archiving it. */
  resolution_time: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  guest_name: string | null;
  guest_email: string | null;
  /** The order number a guest typed, as typed. */
  order_reference: string | null;
  /** The order it names, only when number and shipping email both matched. */
  order_id: string | null;
}

/** A reply under a support ticket: an admin's answer, or the customer's (or guest's) follow-up. */
export interface MessageRepliesTable {
  id: Generated<string>;
  message_id: string;
  author_kind: 'customer' | 'admin' | 'guest';
  author_id: string | null;
  body: string;
  created_at: CreatedAt;
}

export interface CustomerSettingsTable {
  user_id: string;
  first_name: string;
  last_name: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  zip_code: string;
  country: string;
  notify_email: boolean;
  notify_sms: boolean;
  notify_marketing: boolean;
  updated_at: Timestamp;
}

export interface WalletLinksTable {
  user_id: string;
  wallet_address: string;
  linked_at: CreatedAt;
}

export interface WalletChallengesTable {
  nonce: string;
  user_id: string;
  wallet_address: string;
  issued_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface AdminAuditLogTable {
  id: Generated<string>;
  action: string;
  details: JSONColumnType<Record<string, unknown>>;
  actor_id: string | null;
  created_at: CreatedAt;
}

export interface ApiConfigurationsTable {
  id: Generated<string>;
  provider: string;
  key_name: string;
  key_value_encrypted: string | null;
  updated_by: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SchemaMigrationsTable {
  name: string;
  applied_at: CreatedAt;
}

/** 0007: the shop's own counters (sign-in failures, checkout starts), apart from better-auth's. */
export interface RateLimitCountersTable {
  key: string;
  count: number;
  last_request: ColumnType<string, number | bigint | string, number | bigint | string>;
}

/** 0022_transfers_and_refunds.sql: each valid transfer naming a crypto payment's reference. */
export interface PaymentTransfersTable {
  id: Generated<string>;
  payment_id: string;
  signature: string;
  payer: string;
  amount: Numeric;
  block_time: Timestamp | null;
  applied_amount: ColumnType<string, string | bigint | undefined, string | bigint>;
  created_at: CreatedAt;
}

export type RefundStatus = 'pending' | 'sent' | 'awaiting_signature' | 'succeeded' | 'failed';

/** 0022_transfers_and_refunds.sql: refunds, card and crypto, an admin's or the shop's own. */
export interface RefundsTable {
  id: Generated<string>;
  payment_id: string;
  order_id: string | null;
  transfer_id: string | null;
  method: PaymentMethod;
  kind: 'manual' | 'automatic';
  scope: 'order' | 'transfer';
  status: Generated<RefundStatus>;
  amount_cents: number;
  crypto_amount: Numeric | null;
  crypto_mint: string | null;
  destination: string | null;
  reason: string;
  stripe_refund_id: string | null;
  transaction_signature: string | null;
  transaction_wire: string | null;
  last_valid_block_height: Numeric | null;
  error: string | null;
  attempts: Generated<number>;
  lease_until: Timestamp | null;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  completed_at: Timestamp | null;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  rate_limits: RateLimitsTable;
  rate_limit_counters: RateLimitCountersTable;
  products: ProductsTable;
  product_counts: ProductCountsTable;
  payments: PaymentsTable;
  token_purchases: TokenPurchasesTable;
  mail_outbox: MailOutboxTable;
  two_factors: TwoFactorsTable;
  payment_events: PaymentEventsTable;
  payment_transfers: PaymentTransfersTable;
  refunds: RefundsTable;
  stock_reservations: StockReservationsTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  messages: MessagesTable;
  message_replies: MessageRepliesTable;
  customer_settings: CustomerSettingsTable;
  wallet_links: WalletLinksTable;
  wallet_challenges: WalletChallengesTable;
  reward_pool_entries: RewardPoolEntriesTable;
  holder_snapshots: HolderSnapshotsTable;
  airdrop_runs: AirdropRunsTable;
  airdrop_batches: AirdropBatchesTable;
  airdrop_schedule: AirdropScheduleTable;
  airdrop_first_seen: AirdropFirstSeenTable;
  admin_audit_log: AdminAuditLogTable;
  airdrop_claims: AirdropClaimsTable;
  api_configurations: ApiConfigurationsTable;
  schema_migrations: SchemaMigrationsTable;
  admin_order_status_stats: AdminOrderStatusStatsTable;
  admin_order_search: AdminOrderSearchTable;
  admin_daily_stats: AdminDailyStatsTable;
  admin_category_stats: AdminCategoryStatsTable;
  admin_customer_stats: AdminCustomerStatsTable;
}
