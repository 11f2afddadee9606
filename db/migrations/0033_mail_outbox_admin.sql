-- The admin's Outbox lists the whole mail queue newest first (with SMTP as well as local mail),
-- and its dead letters (status 'failed') apart, counted in the navigation's badge.
create index mail_outbox_created_idx on mail_outbox (created_at desc, id desc);
create index mail_outbox_failed_idx on mail_outbox (created_at desc, id desc) where status = 'failed';
