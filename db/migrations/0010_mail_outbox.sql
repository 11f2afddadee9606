-- Mail (issue 13): every message is written here first, in the transaction of the event that
-- causes it, with a key naming that event (unique: one event, one message, however often it is
-- seen), then sent by the mail sender job (claimed with FOR UPDATE SKIP LOCKED, retried with
-- backoff). Through SMTP when SMTP_URL is set, otherwise as .eml files in DATA_DIR/outbox.
create table mail_outbox (
  id uuid primary key default gen_random_uuid(),
  event_key text not null unique,
  to_address text not null,
  subject text not null,
  text_body text not null,
  html_body text,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now()
);
create index mail_outbox_due_idx on mail_outbox (next_attempt_at) where status = 'pending';
