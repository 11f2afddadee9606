-- Bounds on what one client may hold (checkout.service.ts): each pending payment records the
-- client address and the browser's cart it came from, so open checkouts and held units can be
-- counted per address, per signed-in user and per cart, and a new checkout from the same cart
-- replaces the earlier one.
alter table payments add column client_ip text;
alter table payments add column cart_id text;
create index payments_pending_client_ip_idx on payments (client_ip) where status = 'pending';
create index payments_pending_cart_idx on payments (cart_id) where status = 'pending';
create index payments_pending_user_idx on payments (user_id) where status = 'pending';
-- The sweeper looks for card payments that never got their Checkout Session (a crash in between).
create index payments_pending_sessionless_idx on payments (created_at)
  where status = 'pending' and method = 'card' and stripe_session_id is null;
