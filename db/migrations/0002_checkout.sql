-- Checkout and card payments (issue 4): the optional account created with an order, the Stripe
-- PaymentIntent that paid a card payment, and a few rules the database can hold.

-- A checkout may ask for an account: the password's argon2id hash waits here until the payment is
-- confirmed (then the account is created and the hash cleared) or the payment ends (hash cleared).
-- account_outcome records what happened: created, or 'existing' when the email already had an
-- account (left untouched).
alter table payments
  add column account_password_hash text,
  add column account_outcome text check (account_outcome in ('created', 'existing')),
  add column stripe_payment_intent_id text unique;

alter table payments
  add constraint payments_confirmed_at_set check (status <> 'confirmed' or confirmed_at is not null);

-- A reservation ends once: released back to stock or consumed by an order, never both.
alter table stock_reservations
  add constraint stock_reservations_end_once check (released_at is null or consumed_at is null);
