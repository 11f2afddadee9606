-- Figures that agree: revenue everywhere is what was charged, net of refunds.
-- Replaces functions of 0003/0005/0006 (admin summaries); docs/decisions/004-admin-aggregates.md.
--
-- Before: "revenue" was the sum of the items' list prices, while "amount paid" and a customer's
-- "total spent" were orders.amount_cents. An order paid in AELO is 10% off, so three orders that
-- charged $195.80 showed $210.00 of revenue. Now one rule holds in every summary:
--
--   an order's money = orders.amount_cents (what it charged: items, shipping, less any discount)
--                      minus its order-scope refunds that have not failed,
--   and a failed order's money is 0 (it counts as an order, never as money; its refunds neither).
--
-- Refunds (table refunds, 0022): only scope = 'order' rows count (scope = 'transfer' returns money
-- that never paid an order: excess, late or duplicate transfers never were revenue). A refund
-- counts from the moment it is recorded (status pending), not from when it succeeds: the shop has
-- decided to give that money back, and the admin who just pressed Refund sees revenue drop at once.
-- It stops counting only if it fails (the money stayed with the shop); pending -> sent ->
-- succeeded moves no figure. A refund is booked on its order's UTC day and payment method, so a
-- day's figure reads "what that day's orders finally charged" and the daily rows, the payment
-- methods, the customers and the categories all add up to the same total.
--
-- Columns:
--   admin_daily_stats.amount_cents    what the day's non-failed orders charged (before refunds)
--   admin_daily_stats.refunded_cents  (new) their counted order-scope refunds
--   admin_daily_stats.revenue_cents   amount_cents - refunded_cents: the revenue every screen shows
--   admin_customer_stats.spent_cents  the customer's orders' money (net of refunds)
--   admin_category_stats.revenue_cents  see "Revenue by category" below
--
-- Revenue by category. An order's money is one sum (a 10% AELO discount applies to the whole
-- order; shipping and refunds are not per item), so a category's revenue is each order's money
-- shared among its lines in proportion to their list value (price x quantity), in whole cents by
-- largest remainder (ties by category name), so that an order's shares add up exactly to its
-- money and the categories add up to the total revenue. Shipping is shared the same way, and a
-- partial refund lowers every line of its order alike (a refund does not name lines). The shares
-- of each order are kept in admin_order_category_shares (one row per order and category), so a
-- change to an order, its items or its refunds replaces exactly what that order had added.
--
-- Everything is kept inside the writing transaction by triggers on orders, order_items and
-- refunds, as before; admin_stats_rebuild() recomputes it all (and backfills below).

alter table admin_daily_stats add column refunded_cents bigint not null default 0;

create table admin_order_category_shares (
  order_id uuid not null,
  category text not null,
  quantity bigint not null,
  revenue_cents bigint not null,
  primary key (order_id, category)
);

-- The order-scope refunds of an order that count (not failed), in cents.
create function admin_order_refunded(p_order_id uuid) returns bigint
language sql stable as $$
  select coalesce(sum(r.amount_cents), 0)::bigint from refunds r
   where r.order_id = p_order_id and r.scope = 'order' and r.status <> 'failed'
$$;

-- Each non-failed order's money shared among its categories (see "Revenue by category" above).
-- Every window is partitioned by order_id, so `where order_id = X` reads that one order.
create view admin_order_shares as
select s.order_id, s.category, s.quantity,
       s.floor_cents + case
         when row_number() over (partition by s.order_id order by s.rest desc, s.category)
              <= s.net - sum(s.floor_cents) over (partition by s.order_id) then 1 else 0
       end as revenue_cents
  from (
    select w.order_id, w.category, w.quantity, w.net,
           floor(w.net::numeric * w.weight / w.total)::bigint as floor_cents,
           w.net::numeric * w.weight - floor(w.net::numeric * w.weight / w.total) * w.total as rest
      from (
        select l.order_id, l.category, l.quantity, l.net,
               -- Free items only: share by quantity instead.
               case when sum(l.value) over (partition by l.order_id) > 0 then l.value else l.quantity end as weight,
               case when sum(l.value) over (partition by l.order_id) > 0
                    then sum(l.value) over (partition by l.order_id)
                    else sum(l.quantity) over (partition by l.order_id) end as total
          from (
            select o.id as order_id, i.category,
                   sum(i.quantity)::bigint as quantity,
                   sum(i.price_cents::bigint * i.quantity) as value,
                   o.amount_cents::bigint - coalesce(min(r.refunded), 0) as net
              from orders o
              join order_items i on i.order_id = o.id
              left join (
                select x.order_id, sum(x.amount_cents)::bigint as refunded from refunds x
                 where x.scope = 'order' and x.status <> 'failed' and x.order_id is not null
                 group by x.order_id
              ) r on r.order_id = o.id
             where o.status <> 'failed'
             group by o.id, i.category
          ) l
      ) w
  ) s;

-- Replaces what one order had added to admin_category_stats with what it adds now (nothing when
-- it is gone, failed or being deleted: p_gone). The delta is applied in one statement, in
-- category order, like every other multi-row upsert of admin_category_stats (0005).
create function admin_order_shares_refresh(p_order_id uuid, p_gone boolean default false) returns void
language plpgsql as $$
declare
  old_shares jsonb;
  new_shares jsonb;
begin
  with d as (
    delete from admin_order_category_shares where order_id = p_order_id
    returning category, quantity, revenue_cents
  )
  select jsonb_agg(to_jsonb(d)) into old_shares from d;
  if not p_gone then
    with n as (
      insert into admin_order_category_shares (order_id, category, quantity, revenue_cents)
      select order_id, category, quantity, revenue_cents from admin_order_shares where order_id = p_order_id
      returning category, quantity, revenue_cents
    )
    select jsonb_agg(to_jsonb(n)) into new_shares from n;
  end if;
  if old_shares is null and new_shares is null then
    return;
  end if;
  insert into admin_category_stats as c (category, quantity, revenue_cents)
  select x.category, sum(x.sign * x.quantity), sum(x.sign * x.revenue_cents)
    from (
      select -1 as sign, o.* from jsonb_to_recordset(coalesce(old_shares, '[]'))
        as o(category text, quantity bigint, revenue_cents bigint)
      union all
      select 1 as sign, n.* from jsonb_to_recordset(coalesce(new_shares, '[]'))
        as n(category text, quantity bigint, revenue_cents bigint)
    ) x
   group by x.category
  having sum(x.sign * x.quantity) <> 0 or sum(x.sign * x.revenue_cents) <> 0
   order by x.category
  on conflict (category) do update set
    quantity = c.quantity + excluded.quantity,
    revenue_cents = c.revenue_cents + excluded.revenue_cents;
end;
$$;

-- Adds (sign = 1) or removes (sign = -1) one order's counts and money (0005's, with the money
-- net of refunds; categories now go through admin_order_shares_refresh).
create or replace function admin_stats_apply_order(o orders, sign integer) returns void
language plpgsql as $$
declare
  counted boolean := o.status <> 'failed';
  charged bigint := 0;
  refunded bigint := 0;
  latest record;
  remaining integer;
begin
  if counted then
    charged := o.amount_cents;
    refunded := admin_order_refunded(o.id);
  end if;

  insert into admin_daily_stats as s (day, payment_method, orders, amount_cents, refunded_cents, revenue_cents)
  values (
    (o.created_at at time zone 'UTC')::date,
    o.payment_method,
    sign,
    sign * charged,
    sign * refunded,
    sign * (charged - refunded)
  )
  on conflict (day, payment_method) do update set
    orders = s.orders + excluded.orders,
    amount_cents = s.amount_cents + excluded.amount_cents,
    refunded_cents = s.refunded_cents + excluded.refunded_cents,
    revenue_cents = s.revenue_cents + excluded.revenue_cents;

  if sign > 0 then
    insert into admin_customer_stats as c
      (email, first_name, last_name, orders, spent_cents, first_order_at, last_order_at, last_order_id)
    values (
      o.shipping_email,
      coalesce(o.shipping_info ->> 'firstName', ''),
      coalesce(o.shipping_info ->> 'lastName', ''),
      1,
      charged - refunded,
      o.created_at,
      o.created_at,
      o.id
    )
    on conflict (email) do update set
      orders = c.orders + 1,
      spent_cents = c.spent_cents + excluded.spent_cents,
      first_order_at = least(c.first_order_at, excluded.first_order_at),
      last_order_at = greatest(c.last_order_at, excluded.last_order_at),
      first_name = case when admin_stats_is_newer(excluded.last_order_at, excluded.last_order_id, c.last_order_at, c.last_order_id)
                        then excluded.first_name else c.first_name end,
      last_name = case when admin_stats_is_newer(excluded.last_order_at, excluded.last_order_id, c.last_order_at, c.last_order_id)
                       then excluded.last_name else c.last_name end,
      last_order_id = case when admin_stats_is_newer(excluded.last_order_at, excluded.last_order_id, c.last_order_at, c.last_order_id)
                           then excluded.last_order_id else c.last_order_id end;
  else
    update admin_customer_stats c set
      orders = c.orders - 1,
      spent_cents = c.spent_cents - (charged - refunded)
    where c.email = o.shipping_email
    returning c.orders into remaining;
    if remaining is not null and remaining <= 0 then
      delete from admin_customer_stats where email = o.shipping_email;
    elsif remaining is not null then
      -- The order is being removed (or replaced): the rest of this email's orders decide the dates and name.
      select x.id, x.created_at, x.shipping_info into latest from orders x
        where x.shipping_email = o.shipping_email and x.id <> o.id
        order by x.created_at desc, x.id desc limit 1;
      update admin_customer_stats c set
        last_order_at = latest.created_at,
        last_order_id = latest.id,
        first_name = coalesce(latest.shipping_info ->> 'firstName', ''),
        last_name = coalesce(latest.shipping_info ->> 'lastName', ''),
        first_order_at = (select min(x.created_at) from orders x
                            where x.shipping_email = o.shipping_email and x.id <> o.id)
      where c.email = o.shipping_email;
    end if;
  end if;
end;
$$;

create or replace function admin_stats_orders_trigger() returns trigger
language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform admin_stats_apply_order(new, 1);
    perform admin_order_shares_refresh(new.id);
    return null;
  elsif tg_op = 'UPDATE' then
    perform admin_stats_apply_order(old, -1);
    perform admin_stats_apply_order(new, 1);
    perform admin_order_shares_refresh(new.id);
    return null;
  else
    -- BEFORE DELETE: its refunds are still attached, so the order takes out exactly what it added.
    perform admin_stats_apply_order(old, -1);
    perform admin_order_shares_refresh(old.id, true);
    return old;
  end if;
end;
$$;

-- Item changes move no money now (an order's money is what it charged); they move its category
-- shares (and its search text, as in 0005).
create or replace function admin_items_inserted() returns trigger
language plpgsql as $$
begin
  perform admin_order_shares_refresh(x.order_id) from (select distinct order_id from new_items order by 1) x;
  perform admin_order_search_refresh(x.order_id) from (select distinct order_id from new_items order by 1) x;
  return null;
end;
$$;

create or replace function admin_items_deleted() returns trigger
language plpgsql as $$
begin
  perform admin_order_shares_refresh(x.order_id) from (select distinct order_id from old_items order by 1) x;
  perform admin_order_search_refresh(x.order_id) from (select distinct order_id from old_items order by 1) x;
  return null;
end;
$$;

create or replace function admin_items_updated() returns trigger
language plpgsql as $$
begin
  perform admin_order_shares_refresh(x.order_id)
     from (select order_id from old_items union select order_id from new_items order by 1) x;
  perform admin_order_search_refresh(x.order_id)
     from (select order_id from old_items union select order_id from new_items order by 1) x;
  return null;
end;
$$;

drop function admin_stats_apply_items(jsonb, integer);

-- Adds (sign = 1) or removes (sign = -1) one refund from its order's day, method and customer,
-- when it counts: order scope, not failed, on an order that exists and is not failed. (An order
-- being deleted already took its refunds out; its refunds' order_id is then set null.)
create function admin_stats_apply_refund(r refunds, sign integer) returns void
language plpgsql as $$
declare
  o record;
  delta bigint;
begin
  if r.order_id is null or r.scope <> 'order' or r.status = 'failed' or r.amount_cents = 0 then
    return;
  end if;
  select x.created_at, x.payment_method, x.status, x.shipping_email into o from orders x where x.id = r.order_id;
  if not found or o.status = 'failed' then
    return;
  end if;
  delta := sign * r.amount_cents::bigint;
  update admin_daily_stats s set
    refunded_cents = s.refunded_cents + delta,
    revenue_cents = s.revenue_cents - delta
  where s.day = (o.created_at at time zone 'UTC')::date and s.payment_method = o.payment_method;
  update admin_customer_stats c set spent_cents = c.spent_cents - delta where c.email = o.shipping_email;
end;
$$;

create function admin_stats_refunds_trigger() returns trigger
language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform admin_stats_apply_refund(old, -1);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform admin_stats_apply_refund(new, 1);
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.order_id is not null then
    perform admin_order_shares_refresh(old.order_id);
  end if;
  if tg_op = 'INSERT' and new.order_id is not null
     or tg_op = 'UPDATE' and new.order_id is not null and new.order_id is distinct from old.order_id then
    perform admin_order_shares_refresh(new.order_id);
  end if;
  return null;
end;
$$;

create trigger admin_stats_refunds_insert after insert on refunds
  for each row execute function admin_stats_refunds_trigger();
-- Only changes that move a figure: pending, sent, awaiting_signature and succeeded are alike.
create trigger admin_stats_refunds_update after update on refunds
  for each row when (
    old.order_id is distinct from new.order_id
    or old.scope <> new.scope
    or (old.status = 'failed') <> (new.status = 'failed')
    or old.amount_cents <> new.amount_cents
  )
  execute function admin_stats_refunds_trigger();
create trigger admin_stats_refunds_delete after delete on refunds
  for each row execute function admin_stats_refunds_trigger();

-- Recomputes every summary from orders, order_items and refunds.
create or replace function admin_stats_rebuild() returns void
language plpgsql as $$
begin
  delete from admin_daily_stats;
  delete from admin_category_stats;
  delete from admin_order_category_shares;
  delete from admin_customer_stats;
  delete from admin_order_status_stats;

  insert into admin_order_status_stats (status, day, payment_method, orders)
  select o.status, (o.created_at at time zone 'UTC')::date, o.payment_method, count(*)
    from orders o group by 1, 2, 3;

  create temporary table admin_rebuild_money on commit drop as
  select o.id, o.created_at, o.payment_method, o.shipping_email,
         case when o.status <> 'failed' then o.amount_cents::bigint else 0 end as charged,
         case when o.status <> 'failed' then coalesce(r.refunded, 0) else 0 end as refunded
    from orders o
    left join (
      select x.order_id, sum(x.amount_cents)::bigint as refunded from refunds x
       where x.scope = 'order' and x.status <> 'failed' and x.order_id is not null
       group by x.order_id
    ) r on r.order_id = o.id;

  insert into admin_daily_stats (day, payment_method, orders, amount_cents, refunded_cents, revenue_cents)
  select (m.created_at at time zone 'UTC')::date, m.payment_method, count(*),
         coalesce(sum(m.charged), 0), coalesce(sum(m.refunded), 0), coalesce(sum(m.charged - m.refunded), 0)
    from admin_rebuild_money m
   group by 1, 2;

  insert into admin_order_category_shares (order_id, category, quantity, revenue_cents)
  select order_id, category, quantity, revenue_cents from admin_order_shares;

  insert into admin_category_stats (category, quantity, revenue_cents)
  select category, sum(quantity), sum(revenue_cents) from admin_order_category_shares group by category;

  insert into admin_customer_stats
    (email, first_name, last_name, orders, spent_cents, first_order_at, last_order_at, last_order_id)
  select a.email, coalesce(l.shipping_info ->> 'firstName', ''), coalesce(l.shipping_info ->> 'lastName', ''),
         a.orders, a.spent, a.first_at, a.last_at, l.id
    from (
      select m.shipping_email as email, count(*) as orders,
             coalesce(sum(m.charged - m.refunded), 0) as spent,
             min(m.created_at) as first_at, max(m.created_at) as last_at
        from admin_rebuild_money m group by m.shipping_email
    ) a
    join (
      select distinct on (o.shipping_email) o.shipping_email, o.id, o.shipping_info
        from orders o order by o.shipping_email, o.created_at desc, o.id desc
    ) l on l.shipping_email = a.email;

  drop table admin_rebuild_money;
end;
$$;

select admin_stats_rebuild();
