-- Support that goes both ways (issue 40): a ticket is a thread, and guests reach the same inbox.
--
-- message_replies: the answers and follow-ups under a ticket (the ticket's own text stays in
-- messages.content). author_kind says who wrote it; author_id is the account when there is one
-- (an admin, or the customer who owns the ticket); a guest has none. Same limits as a ticket's
-- description (1 to 2000 characters).
create table message_replies (
  id uuid primary key default gen_random_uuid(),
  message_id uuid not null references messages (id) on delete cascade,
  author_kind text not null check (author_kind in ('customer', 'admin', 'guest')),
  author_id text references users (id) on delete set null,
  body text not null check (char_length(body) between 1 and 2000),
  created_at timestamptz not null default now()
);
create index message_replies_message_idx on message_replies (message_id, created_at, id);

-- Guest tickets (the /contact form): no account, so the sender's name and address are kept on the
-- ticket; the order number they named, as typed, and the order it links to only when that number
-- and the order's shipping email both matched.
alter table messages alter column user_id drop not null;
alter table messages add column guest_name text
  check (guest_name is null or char_length(guest_name) between 1 and 100);
alter table messages add column guest_email text
  check (guest_email is null or char_length(guest_email) between 3 and 254);
alter table messages add column order_reference text
  check (order_reference is null or char_length(order_reference) between 1 and 40);
alter table messages add column order_id uuid references orders (id) on delete set null;
alter table messages add constraint messages_sender_check
  check (user_id is not null or (guest_name is not null and guest_email is not null));
create index messages_order_idx on messages (order_id) where order_id is not null;
create index messages_guest_email_idx on messages (lower(guest_email)) where guest_email is not null;

-- response_time and resolution_time (seconds from the ticket's creation) were in the first schema;
-- they are set now: the first admin reply, and the admin's Archive.
comment on column messages.response_time is 'seconds from created_at to the first admin reply';
comment on column messages.resolution_time is 'seconds from created_at to the admin archiving it';
