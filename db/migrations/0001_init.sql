-- Initial schema: accounts (better-auth tables, snake_case), catalogue, checkout/payments with stock
-- reservations, orders and their items, support messages, admin audit log, airdrops, API settings.
-- Runs on PostgreSQL 15+ and PGlite. Money is integer cents; crypto amounts are integer base units.

create extension if not exists pgcrypto;

-- Accounts -------------------------------------------------------------------------------------
create table users (
  id text primary key,
  name text not null default '',
  email text not null,
  email_verified boolean not null default false,
  image text,
  role text not null default 'customer' check (role in ('customer', 'admin')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint users_email_lower check (email = lower(email))
);
create unique index users_email_key on users (email);

create table sessions (
  id text primary key,
  token text not null unique,
  user_id text not null references users (id) on delete cascade,
  expires_at timestamptz not null,
  ip_address text,
  user_agent text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index sessions_user_id_idx on sessions (user_id);

create table accounts (
  id text primary key,
  account_id text not null,
  provider_id text not null,
  user_id text not null references users (id) on delete cascade,
  access_token text,
  refresh_token text,
  id_token text,
  access_token_expires_at timestamptz,
  refresh_token_expires_at timestamptz,
  scope text,
  password text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index accounts_user_id_idx on accounts (user_id);
-- One account per provider identity; for email + password: provider 'credential', account_id = user id.
create unique index accounts_provider_account_key on accounts (provider_id, account_id);

create table verifications (
  id text primary key,
  identifier text not null,
  value text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index verifications_identifier_idx on verifications (identifier);

create table rate_limits (
  id text primary key,
  key text not null unique,
  count integer not null,
  last_request bigint not null
);

-- Catalogue ------------------------------------------------------------------------------------
create table products (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(title) between 1 and 200),
  description text not null default '' check (char_length(description) <= 5000),
  brand text not null check (char_length(brand) between 1 and 100),
  price_cents integer not null check (price_cents >= 0),
  original_price_cents integer check (original_price_cents is null or original_price_cents >= 0),
  images text[] not null check (cardinality(images) between 1 and 4),
  quantity integer not null check (quantity >= 0),
  sizes text[] not null default '{}' check (sizes <@ array['XS', 'S', 'M', 'L', 'XL']::text[]),
  colors text[] not null default '{}',
  size_guide jsonb,
  gender text not null check (gender in ('womens', 'mens')),
  category text not null check (category in (
    'womens-leggings', 'womens-bras', 'womens-tanks', 'womens-shorts', 'womens-pants', 'womens-jackets',
    'womens-hoodies', 'womens-accessories', 'womens-dresses', 'womens-skirts',
    'mens-tops', 'mens-tanks', 'mens-bottoms', 'mens-shorts', 'mens-pants', 'mens-jackets', 'mens-hoodies',
    'mens-accessories')),
  shipping_weight numeric(6, 2) not null check (shipping_weight >= 0.1),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint products_category_matches_gender check (category like gender || '-%')
);
create index products_created_at_idx on products (created_at desc, id);
create index products_gender_category_idx on products (gender, category, created_at desc);
create index products_category_idx on products (category, created_at desc);

-- Checkout and payments ------------------------------------------------------------------------
-- A payment is started by a checkout: the server priced the lines, reserved stock and gave it a
-- random reference. An order exists only once the payment is confirmed.
create table payments (
  id uuid primary key default gen_random_uuid(),
  reference text not null unique,
  method text not null check (method in ('card', 'sol', 'aelo')),
  status text not null default 'pending'
    check (status in ('pending', 'confirmed', 'expired', 'failed', 'cancelled')),
  subtotal_cents integer not null check (subtotal_cents >= 0),
  shipping_cents integer not null check (shipping_cents >= 0),
  discount_cents integer not null default 0 check (discount_cents >= 0),
  amount_cents integer not null check (amount_cents >= 0),
  crypto_amount numeric(40, 0) check (crypto_amount is null or crypto_amount > 0),
  crypto_mint text,
  recipient text,
  lines jsonb not null,
  shipping_info jsonb not null,
  user_id text references users (id) on delete set null,
  stripe_session_id text unique,
  transaction_signature text unique,
  error text,
  expires_at timestamptz not null,
  confirmed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index payments_pending_expiry_idx on payments (expires_at) where status = 'pending';

-- Every state change of a payment, in order.
create table payment_events (
  id bigserial primary key,
  payment_id uuid not null references payments (id) on delete cascade,
  from_status text,
  to_status text not null,
  detail jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index payment_events_payment_idx on payment_events (payment_id, id);

create table stock_reservations (
  id uuid primary key default gen_random_uuid(),
  payment_id uuid not null references payments (id) on delete cascade,
  product_id uuid not null references products (id) on delete cascade,
  quantity integer not null check (quantity > 0),
  expires_at timestamptz not null,
  released_at timestamptz,
  consumed_at timestamptz,
  created_at timestamptz not null default now()
);
create index stock_reservations_active_idx on stock_reservations (expires_at)
  where released_at is null and consumed_at is null;
create index stock_reservations_payment_idx on stock_reservations (payment_id);

-- Orders -----------------------------------------------------------------------------------------
create table orders (
  id uuid primary key default gen_random_uuid(),
  payment_id uuid unique references payments (id) on delete set null,
  user_id text references users (id) on delete set null,
  status text not null default 'pending' check (status in ('pending', 'shipped', 'completed', 'failed')),
  payment_method text not null check (payment_method in ('card', 'sol', 'aelo')),
  subtotal_cents integer not null check (subtotal_cents >= 0),
  shipping_cents integer not null check (shipping_cents >= 0),
  discount_cents integer not null default 0 check (discount_cents >= 0),
  amount_cents integer not null check (amount_cents >= 0),
  shipping_info jsonb not null,
  shipping_email text not null,
  tracking_number text,
  transaction_signature text unique,
  refund_required boolean not null default false,
  refund_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint orders_shipping_email_lower check (shipping_email = lower(shipping_email))
);
create index orders_created_at_idx on orders (created_at desc);
create index orders_status_created_idx on orders (status, created_at desc);
create index orders_shipping_email_idx on orders (shipping_email, created_at desc);
create index orders_refund_idx on orders (created_at desc) where refund_required;

create table order_items (
  id bigserial primary key,
  order_id uuid not null references orders (id) on delete cascade,
  product_id uuid references products (id) on delete set null,
  title text not null,
  image text not null,
  category text not null,
  size text,
  color text,
  quantity integer not null check (quantity between 1 and 5),
  price_cents integer not null check (price_cents >= 0)
);
create index order_items_order_idx on order_items (order_id);
create index order_items_category_idx on order_items (category);

-- Support messages -------------------------------------------------------------------------------
create table messages (
  id uuid primary key default gen_random_uuid(),
  user_id text not null references users (id) on delete cascade,
  subject text not null check (char_length(subject) between 1 and 100),
  content text not null check (char_length(content) between 1 and 2000),
  category text not null default 'general'
    check (category in ('general', 'order', 'product', 'technical', 'billing', 'other')),
  status text not null default 'unread' check (status in ('unread', 'read', 'archived')),
  priority text not null default 'normal' check (priority in ('high', 'normal', 'low')),
  response_time integer check (response_time is null or response_time >= 0),
  resolution_time integer check (resolution_time is null or resolution_time >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index messages_user_created_idx on messages (user_id, created_at desc);
create index messages_created_idx on messages (created_at desc);
create index messages_status_idx on messages (status, created_at desc);

-- Admin audit log: append-only, enforced by the database.
create table admin_audit_log (
  id bigserial primary key,
  action text not null check (char_length(action) between 1 and 100),
  details jsonb not null default '{}',
  actor_id text references users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index admin_audit_log_created_idx on admin_audit_log (created_at desc);
create index admin_audit_log_action_idx on admin_audit_log (action, created_at desc);

create function admin_audit_log_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'admin_audit_log is append-only';
end;
$$;
create trigger admin_audit_log_no_update before update or delete on admin_audit_log
  for each row execute function admin_audit_log_append_only();

-- Airdrops ---------------------------------------------------------------------------------------
create table airdrop_claims (
  id uuid primary key default gen_random_uuid(),
  wallet_address text not null,
  amount_lamports numeric(30, 0) not null check (amount_lamports > 0),
  kind text not null default 'top50' check (kind in ('top50', 'random')),
  run_id uuid,
  transaction_signature text,
  created_at timestamptz not null default now()
);
create index airdrop_claims_created_idx on airdrop_claims (created_at desc);
create index airdrop_claims_wallet_idx on airdrop_claims (wallet_address);

-- API configurations: values encrypted at rest (AES-256-GCM), never sent back in full.
create table api_configurations (
  id uuid primary key default gen_random_uuid(),
  provider text not null check (char_length(provider) between 1 and 50),
  key_name text not null check (char_length(key_name) between 1 and 100),
  key_value_encrypted text,
  updated_by text references users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (provider, key_name)
);
