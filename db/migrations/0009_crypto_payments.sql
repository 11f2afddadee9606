-- Crypto payments (issue 12): the quote a SOL or AELO payment was priced at, and the watcher's
-- lease (payments are looked for on the chain by one instance at a time, claimed with
-- FOR UPDATE SKIP LOCKED). payments.crypto_amount / crypto_mint / recipient (0001) hold what is due.
alter table payments add column crypto_price_usd text;
alter table payments add column watch_lease_until timestamptz;
create index payments_crypto_watch_idx on payments (created_at)
  where method in ('sol', 'aelo') and transaction_signature is null;

-- Buy Token: one row per purchase. The treasury's AELO and the buyer's SOL move in one transaction
-- (a Solana Pay transaction request the treasury partially signs), so a purchase completes at most
-- once; the signature that completed it is unique.
create table token_purchases (
  id uuid primary key default gen_random_uuid(),
  reference text not null unique,
  status text not null default 'pending' check (status in ('pending', 'completed', 'expired')),
  usd_cents integer not null check (usd_cents > 0),
  lamports numeric(30, 0) not null check (lamports > 0),
  token_amount numeric(40, 0) not null check (token_amount > 0),
  sol_price_usd text not null,
  token_price_usd text not null,
  buyer text,
  -- The one transaction handed out (same bytes on every request until its blockhash expires).
  transaction_base64 text,
  blockhash text,
  last_valid_block_height numeric(30, 0),
  transaction_signature text unique,
  client_ip text,
  user_id text references users (id) on delete set null,
  watch_lease_until timestamptz,
  expires_at timestamptz not null,
  completed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index token_purchases_created_idx on token_purchases (created_at desc);
create index token_purchases_watch_idx on token_purchases (created_at) where transaction_signature is null;
