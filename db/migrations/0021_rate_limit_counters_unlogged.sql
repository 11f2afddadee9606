-- Rate-limit counters (checkout starts, sign-in failures, mail and tracking requests) need no
-- durability: an unlogged table writes no WAL, so the counter a checkout bumps before its
-- reservation no longer waits for a WAL flush of its own (5-12 ms per checkout on a busy disk,
-- bench/checkout.ts). What is given up: after a crash of PostgreSQL (not a clean restart) the
-- table is emptied, and standbys do not have it; every window then starts again from zero, which
-- is what a window's end does anyway.
alter table rate_limit_counters set unlogged;
