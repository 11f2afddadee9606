-- Admin back office (issue 5): aggregates that stay fast at a million orders.
--
-- The dashboard, customers and analytics screens read three summary tables that triggers on
-- orders and order_items keep current inside the writing transaction (so they are exactly as
-- consistent as the orders themselves), instead of scanning every order on each request:
--   admin_daily_stats     one row per UTC day and payment method: orders, amount paid, item revenue
--   admin_category_stats  one row per order_items.category: quantity and item revenue
--   admin_customer_stats  one row per shipping email: orders, amount paid, first/last order, name
-- Rule (see src/server/modules/admin/admin-stats.repository.ts): a failed order (paid,
-- then refunded because its stock was lost) counts as an order but never as money: it adds to
-- order counts, not to revenue, amounts, categories or customers' total spent.
-- admin_stats_rebuild() recomputes all three from scratch (backfill below, bulk loads, repairs).

create table admin_daily_stats (
  day date not null,
  payment_method text not null,
  orders integer not null default 0,
  amount_cents bigint not null default 0,
  revenue_cents bigint not null default 0,
  primary key (day, payment_method)
);

create table admin_category_stats (
  category text primary key,
  quantity bigint not null default 0,
  revenue_cents bigint not null default 0
);

create table admin_customer_stats (
  email text primary key,
  first_name text not null default '',
  last_name text not null default '',
  orders integer not null,
  spent_cents bigint not null,
  first_order_at timestamptz not null,
  last_order_at timestamptz not null
);
create index admin_customer_stats_last_idx on admin_customer_stats (last_order_at desc, email);
create index admin_customer_stats_spent_idx on admin_customer_stats (spent_cents desc, email);
create index admin_customer_stats_orders_idx on admin_customer_stats (orders desc, email);
create index admin_customer_stats_first_idx on admin_customer_stats (first_order_at);

-- Adds (sign = 1) or removes (sign = -1) one order's contribution, items included.
create function admin_stats_apply_order(o orders, sign integer) returns void
language plpgsql as $$
declare
  counted boolean := o.status <> 'failed';
  items_revenue bigint := 0;
  latest record;
  remaining integer;
begin
  if counted then
    select coalesce(sum(i.price_cents::bigint * i.quantity), 0) into items_revenue
      from order_items i where i.order_id = o.id;
  end if;

  insert into admin_daily_stats as s (day, payment_method, orders, amount_cents, revenue_cents)
  values (
    (o.created_at at time zone 'UTC')::date,
    o.payment_method,
    sign,
    sign * (case when counted then o.amount_cents else 0 end),
    sign * items_revenue
  )
  on conflict (day, payment_method) do update set
    orders = s.orders + excluded.orders,
    amount_cents = s.amount_cents + excluded.amount_cents,
    revenue_cents = s.revenue_cents + excluded.revenue_cents;

  if counted then
    insert into admin_category_stats as c (category, quantity, revenue_cents)
    select i.category, sign * sum(i.quantity), sign * sum(i.price_cents::bigint * i.quantity)
      from order_items i where i.order_id = o.id group by i.category
    on conflict (category) do update set
      quantity = c.quantity + excluded.quantity,
      revenue_cents = c.revenue_cents + excluded.revenue_cents;
  end if;

  if sign > 0 then
    insert into admin_customer_stats as c
      (email, first_name, last_name, orders, spent_cents, first_order_at, last_order_at)
    values (
      o.shipping_email,
      coalesce(o.shipping_info ->> 'firstName', ''),
      coalesce(o.shipping_info ->> 'lastName', ''),
      1,
      case when counted then o.amount_cents else 0 end,
      o.created_at,
      o.created_at
    )
    on conflict (email) do update set
      orders = c.orders + 1,
      spent_cents = c.spent_cents + excluded.spent_cents,
      first_order_at = least(c.first_order_at, excluded.first_order_at),
      last_order_at = greatest(c.last_order_at, excluded.last_order_at),
      first_name = case when excluded.last_order_at >= c.last_order_at then excluded.first_name else c.first_name end,
      last_name = case when excluded.last_order_at >= c.last_order_at then excluded.last_name else c.last_name end;
  else
    update admin_customer_stats c set
      orders = c.orders - 1,
      spent_cents = c.spent_cents - (case when counted then o.amount_cents else 0 end)
    where c.email = o.shipping_email
    returning c.orders into remaining;
    if remaining is not null and remaining <= 0 then
      delete from admin_customer_stats where email = o.shipping_email;
    elsif remaining is not null then
      -- The order is being removed (or replaced): the rest of this email's orders decide the dates and name.
      select x.created_at, x.shipping_info into latest from orders x
        where x.shipping_email = o.shipping_email and x.id <> o.id
        order by x.created_at desc, x.id desc limit 1;
      update admin_customer_stats c set
        last_order_at = latest.created_at,
        first_name = coalesce(latest.shipping_info ->> 'firstName', ''),
        last_name = coalesce(latest.shipping_info ->> 'lastName', ''),
        first_order_at = (select min(x.created_at) from orders x
                            where x.shipping_email = o.shipping_email and x.id <> o.id)
      where c.email = o.shipping_email;
    end if;
  end if;
end;
$$;

-- One item's revenue, when its order exists and is not failed.
create function admin_stats_apply_item(i order_items, sign integer) returns void
language plpgsql as $$
declare
  o record;
begin
  select x.created_at, x.payment_method, x.status into o from orders x where x.id = i.order_id;
  -- No order: it is being deleted, and its BEFORE DELETE trigger already removed its items.
  if not found or o.status = 'failed' then
    return;
  end if;
  update admin_daily_stats s set revenue_cents = s.revenue_cents + sign * i.price_cents::bigint * i.quantity
    where s.day = (o.created_at at time zone 'UTC')::date and s.payment_method = o.payment_method;
  insert into admin_category_stats as c (category, quantity, revenue_cents)
  values (i.category, sign * i.quantity, sign * i.price_cents::bigint * i.quantity)
  on conflict (category) do update set
    quantity = c.quantity + excluded.quantity,
    revenue_cents = c.revenue_cents + excluded.revenue_cents;
end;
$$;

create function admin_stats_orders_trigger() returns trigger
language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform admin_stats_apply_order(new, 1);
    return null;
  elsif tg_op = 'UPDATE' then
    perform admin_stats_apply_order(old, -1);
    perform admin_stats_apply_order(new, 1);
    return null;
  else
    -- BEFORE DELETE: the items still exist, so their revenue leaves with the order.
    perform admin_stats_apply_order(old, -1);
    return old;
  end if;
end;
$$;

create function admin_stats_items_trigger() returns trigger
language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform admin_stats_apply_item(old, -1);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform admin_stats_apply_item(new, 1);
  end if;
  return null;
end;
$$;

create trigger admin_stats_orders_insert after insert on orders
  for each row execute function admin_stats_orders_trigger();
-- Only changes that move an aggregate: pending/shipped/completed are alike, failed is not.
create trigger admin_stats_orders_update after update on orders
  for each row when (
    (old.status = 'failed') <> (new.status = 'failed')
    or old.amount_cents <> new.amount_cents
    or old.payment_method <> new.payment_method
    or old.shipping_email <> new.shipping_email
    or old.shipping_info is distinct from new.shipping_info
    or old.created_at <> new.created_at
  )
  execute function admin_stats_orders_trigger();
create trigger admin_stats_orders_delete before delete on orders
  for each row execute function admin_stats_orders_trigger();
create trigger admin_stats_items_change after insert or update or delete on order_items
  for each row execute function admin_stats_items_trigger();

-- Recomputes every summary from orders and order_items.
create function admin_stats_rebuild() returns void
language plpgsql as $$
begin
  delete from admin_daily_stats;
  delete from admin_category_stats;
  delete from admin_customer_stats;

  insert into admin_daily_stats (day, payment_method, orders, amount_cents, revenue_cents)
  select (o.created_at at time zone 'UTC')::date, o.payment_method, count(*),
         coalesce(sum(case when o.status <> 'failed' then o.amount_cents else 0 end), 0),
         coalesce(sum(case when o.status <> 'failed' then r.revenue else 0 end), 0)
    from orders o
    left join (
      select i.order_id, sum(i.price_cents::bigint * i.quantity) as revenue
        from order_items i group by i.order_id
    ) r on r.order_id = o.id
   group by 1, 2;

  insert into admin_category_stats (category, quantity, revenue_cents)
  select i.category, sum(i.quantity), sum(i.price_cents::bigint * i.quantity)
    from order_items i join orders o on o.id = i.order_id
   where o.status <> 'failed'
   group by i.category;

  insert into admin_customer_stats (email, first_name, last_name, orders, spent_cents, first_order_at, last_order_at)
  select a.email, coalesce(l.shipping_info ->> 'firstName', ''), coalesce(l.shipping_info ->> 'lastName', ''),
         a.orders, a.spent, a.first_at, a.last_at
    from (
      select o.shipping_email as email, count(*) as orders,
             coalesce(sum(case when o.status <> 'failed' then o.amount_cents else 0 end), 0) as spent,
             min(o.created_at) as first_at, max(o.created_at) as last_at
        from orders o group by o.shipping_email
    ) a
    join (
      select distinct on (o.shipping_email) o.shipping_email, o.shipping_info
        from orders o order by o.shipping_email, o.created_at desc, o.id desc
    ) l on l.shipping_email = a.email;
end;
$$;

select admin_stats_rebuild();

-- Admin lists ----------------------------------------------------------------------------------
-- Products filtered by gender alone, newest first (the gender+category index serves both filters).
create index products_gender_created_idx on products (gender, created_at desc, id desc);
-- Messages filtered by priority, newest first.
create index messages_priority_idx on messages (priority, created_at desc);
