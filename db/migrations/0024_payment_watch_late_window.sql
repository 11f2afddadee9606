-- One reference watcher: the payment watcher now looks at every crypto payment still
-- inside its late window, whatever its status and whether or not a signature already paid it (a
-- transfer that still arrives for a paid, closed, expired or cancelled checkout is recorded and
-- refunded, never lost). The lease reads "pending, or expires_at after the window's start": the
-- pending ones through payments_pending_expiry_idx (0001), the others through this index, which
-- replaces the one on unpaid payments (0009) the old rule read.
drop index if exists payments_crypto_watch_idx;
create index payments_crypto_watch_idx on payments (expires_at) where method in ('sol', 'aelo');
