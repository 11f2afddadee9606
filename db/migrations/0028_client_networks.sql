-- IPv6 clients (docs/decisions/016-anonymous-holds.md): a checkout's holds are counted per client
-- key (an IPv4 address, an IPv6 /64) and per network (an IPv6 /56), not per address, since anyone
-- with one IPv6 address can use every address of its /64. payments.client_ip keeps the address.
alter table payments add column client_key text;
alter table payments add column client_network text;
create index payments_pending_client_key_idx on payments (client_key) where status = 'pending';
create index payments_pending_client_network_idx on payments (client_network) where status = 'pending';
-- Open checkouts started before this: an IPv4 address is its own key and network (an IPv6 one is
-- left uncounted for the few minutes its hold has left).
update payments set client_key = client_ip, client_network = client_ip
  where status = 'pending' and client_ip is not null and strpos(client_ip, ':') = 0;
-- Holds are no longer counted per address.
drop index if exists payments_pending_client_ip_idx;
-- Units held of a product: what anonymous checkouts may hold together is a share of its units.
create index stock_reservations_held_product_idx on stock_reservations (product_id)
  where released_at is null and consumed_at is null;
