-- The holder-rewards engine (issue 14). See docs/rewards.md.

-- The ledger of the two reward pools: every confirmed order credits its shares of the revenue
-- split (one row per pool, in the order's own transaction); every airdrop run debits what it
-- planned to pay (one row per run, in the planning transaction). A pool's balance is its sum.
create table reward_pool_entries (
  id bigserial primary key,
  pool text not null check (pool in ('buyback', 'random')),
  -- Credits positive, payouts negative; integer cents.
  amount_cents bigint not null check (amount_cents <> 0),
  source text not null check (source in ('order', 'payout', 'opening')),
  order_id uuid references orders (id) on delete set null,
  run_id uuid,
  created_at timestamptz not null default now(),
  constraint reward_pool_entries_order_once unique (order_id, pool),
  constraint reward_pool_entries_run_once unique (run_id, pool)
);
create index reward_pool_entries_pool_idx on reward_pool_entries (pool, created_at);

-- A holder snapshot from the chain: how many holders, and the top 50 eligible ones with their ranks
-- (what the rewards figures read).
create table holder_snapshots (
  id bigserial primary key,
  taken_at timestamptz not null default now(),
  holder_count integer not null,
  top jsonb not null
);
create index holder_snapshots_taken_idx on holder_snapshots (taken_at desc);

-- One airdrop: planned whole (claims and batches) in one transaction before anything is sent.
create table airdrop_runs (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('top50', 'random')),
  trigger text not null check (trigger in ('schedule', 'admin')),
  -- The UTC day a scheduled daily run belongs to: one per day, whatever the instances.
  run_date date,
  status text not null default 'sending' check (status in ('sending', 'completed', 'failed')),
  pool_cents bigint not null,
  sol_price_micros bigint not null,
  recipients integer not null,
  total_lamports numeric(30, 0) not null,
  snapshot_id bigint references holder_snapshots (id),
  error text,
  created_at timestamptz not null default now(),
  completed_at timestamptz,
  constraint airdrop_runs_daily_once unique (kind, run_date)
);
create index airdrop_runs_open_idx on airdrop_runs (created_at) where status <> 'completed';

-- A transaction of several transfers. Its signature, wire bytes and blockhash expiry are written
-- before it is sent, so a resumed run can tell whether it landed and never pays twice.
create table airdrop_batches (
  id bigserial primary key,
  run_id uuid not null references airdrop_runs (id) on delete cascade,
  batch_no integer not null,
  status text not null default 'planned' check (status in ('planned', 'sent', 'landed')),
  signature text unique,
  wire text,
  last_valid_block_height bigint,
  attempts integer not null default 0,
  updated_at timestamptz not null default now(),
  unique (run_id, batch_no)
);

-- Claims are the planned transfers too: 'planned' and 'sent' until their batch lands.
alter table airdrop_claims
  add column status text not null default 'confirmed' check (status in ('planned', 'sent', 'confirmed')),
  add column batch_id bigint references airdrop_batches (id) on delete cascade,
  add constraint airdrop_claims_run_wallet_once unique (run_id, wallet_address);

-- When the next random airdrop is due: drawn once and kept, so restarts keep the schedule.
create table airdrop_schedule (
  kind text primary key check (kind in ('random')),
  next_at timestamptz not null
);

-- The demo shop's opening balance (SEED_DEMO on the local ledger), written once per pool.
create unique index reward_pool_entries_opening_once on reward_pool_entries (pool) where source = 'opening';
