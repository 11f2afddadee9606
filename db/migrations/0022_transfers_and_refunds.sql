-- Every payment ends in exactly one order or one refund (docs/decisions/015).
--
-- payment_transfers: every valid on-chain transfer that names a crypto payment's reference (right
-- recipient, right mint, confirmed, not failed) is recorded once, whatever the payment's state:
-- the parts of a payment add up to the amount due; what arrives after the order was paid, after
-- the payment ended, or beyond the amount due is refunded from here. A signature is recorded once
-- (unique), so N instances and retries record it once.
create table payment_transfers (
  id uuid primary key default gen_random_uuid(),
  payment_id uuid not null references payments (id) on delete cascade,
  signature text not null unique,
  -- The wallet that paid (the transfer's source owner): a refund goes back to it.
  payer text not null,
  -- Base units of the payment's coin (lamports, or the token's units).
  amount numeric(40, 0) not null check (amount > 0),
  block_time timestamptz,
  -- What of it paid the order (the rest, if any, is refunded): 0 until the order is confirmed.
  applied_amount numeric(40, 0) not null default 0 check (applied_amount >= 0 and applied_amount <= amount),
  created_at timestamptz not null default now()
);
create index payment_transfers_payment_idx on payment_transfers (payment_id, created_at);

-- refunds: one row per refund, card or crypto, made by an admin or by the shop itself (a transfer
-- that could not pay an order). A refund is created in the same transaction that decides it, then
-- carried out by the refund worker: Stripe's refunds API with the refund's id as idempotency key,
-- or a transfer back to the paying wallet whose signature is recorded before it is sent. Exactly
-- once under retries, N instances and kill -9.
create table refunds (
  id uuid primary key default gen_random_uuid(),
  payment_id uuid not null references payments (id) on delete cascade,
  order_id uuid references orders (id) on delete set null,
  -- An automatic refund of one transfer (late, beyond the amount due, to a closed checkout): once.
  transfer_id uuid unique references payment_transfers (id) on delete set null,
  method text not null check (method in ('card', 'sol', 'aelo')),
  -- manual: an admin's; automatic: the shop's own (the payment could not become an order, or was more than due).
  kind text not null check (kind in ('manual', 'automatic')),
  -- order: returns part of what the order charged (counted out of revenue); transfer: returns money
  -- that never paid an order (excess, late, duplicate: never counted in revenue).
  scope text not null check (scope in ('order', 'transfer')),
  status text not null default 'pending'
    check (status in ('pending', 'sent', 'awaiting_signature', 'succeeded', 'failed')),
  -- The USD value returned (an order-scope refund's cents come out of revenue).
  amount_cents integer not null check (amount_cents >= 0),
  -- Crypto: the base units sent back, of which mint (null: SOL), to which wallet.
  crypto_amount numeric(40, 0) check (crypto_amount is null or crypto_amount > 0),
  crypto_mint text,
  destination text,
  reason text not null check (char_length(reason) between 1 and 500),
  stripe_refund_id text unique,
  transaction_signature text unique,
  -- The signed transaction, kept before it is sent, and until when its blockhash is valid.
  transaction_wire text,
  last_valid_block_height numeric(30, 0),
  error text,
  attempts integer not null default 0,
  lease_until timestamptz,
  created_by text references users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  completed_at timestamptz,
  constraint refunds_crypto_amount check ((method = 'card') = (crypto_amount is null)),
  constraint refunds_completed check (status <> 'succeeded' or completed_at is not null)
);
create index refunds_order_idx on refunds (order_id, created_at);
create index refunds_payment_idx on refunds (payment_id);
create index refunds_open_idx on refunds (created_at) where status in ('pending', 'sent');

-- A cart whose checkout was paid is closed: a new checkout from it is refused (checkout.service.ts).
create index payments_confirmed_cart_idx on payments (cart_id) where status = 'confirmed' and cart_id is not null;
