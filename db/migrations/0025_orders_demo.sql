-- An order paid with test money: by crypto on the local demo ledger (LOCAL_LEDGER; its faucet and
-- demo wallet are anyone's), or by card in Stripe's test mode (its event's livemode is false).
-- Nothing was charged for it and it does not ship; the admin, the customer's orders and the order
-- mail say so. Orders placed before this column existed were not marked (false).
alter table orders add column if not exists demo boolean not null default false;
