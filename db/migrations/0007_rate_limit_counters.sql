-- The shop's own counters (sign-in failures, checkout starts) live apart from better-auth's
-- rate_limits: better-auth deletes every rate_limits row older than its own longest window, which
-- cut the shop's longer windows (15 min for sign-in failures, 10 min for checkouts) short.
create table rate_limit_counters (
  key text primary key,
  count integer not null check (count >= 0),
  last_request bigint not null
);
create index rate_limit_counters_last_request_idx on rate_limit_counters (last_request);
