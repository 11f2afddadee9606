-- Admin summary and search triggers, second version (replaces functions of 0003_admin_stats.sql and
-- 0004_admin_text_search.sql):
--
-- 1. Lock order. Item changes are applied once per statement (transition tables) instead of once
--    per row, and every multi-row upsert of admin_category_stats runs in category order. Two
--    orders written at once whose items share categories in a different order therefore take the
--    category rows in the same order and can not deadlock.
-- 2. A customer's latest order is decided by (created_at, id), so two orders of one email written
--    in the same instant (created_at comes from the application clock, in milliseconds) name the
--    customer the same way whether the summary was kept by the triggers or recomputed by
--    admin_stats_rebuild().
--
-- Concurrency note: an order's transaction holds its (UTC day, payment method) row of
-- admin_daily_stats from the order's insert until commit, so order confirmations of one method on
-- one day commit one after the other (each holds it for the rest of its transaction: milliseconds).

alter table admin_customer_stats add column last_order_id uuid;

create function admin_stats_is_newer(a_at timestamptz, a_id uuid, b_at timestamptz, b_id uuid) returns boolean
language sql immutable as $$
  select a_at > b_at or (a_at = b_at and (b_id is null or a_id > b_id))
$$;

create or replace function admin_stats_apply_order(o orders, sign integer) returns void
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
      from order_items i where i.order_id = o.id group by i.category order by i.category
    on conflict (category) do update set
      quantity = c.quantity + excluded.quantity,
      revenue_cents = c.revenue_cents + excluded.revenue_cents;
  end if;

  if sign > 0 then
    insert into admin_customer_stats as c
      (email, first_name, last_name, orders, spent_cents, first_order_at, last_order_at, last_order_id)
    values (
      o.shipping_email,
      coalesce(o.shipping_info ->> 'firstName', ''),
      coalesce(o.shipping_info ->> 'lastName', ''),
      1,
      case when counted then o.amount_cents else 0 end,
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
      spent_cents = c.spent_cents - (case when counted then o.amount_cents else 0 end)
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

create or replace function admin_stats_rebuild() returns void
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

  insert into admin_customer_stats
    (email, first_name, last_name, orders, spent_cents, first_order_at, last_order_at, last_order_id)
  select a.email, coalesce(l.shipping_info ->> 'firstName', ''), coalesce(l.shipping_info ->> 'lastName', ''),
         a.orders, a.spent, a.first_at, a.last_at, l.id
    from (
      select o.shipping_email as email, count(*) as orders,
             coalesce(sum(case when o.status <> 'failed' then o.amount_cents else 0 end), 0) as spent,
             min(o.created_at) as first_at, max(o.created_at) as last_at
        from orders o group by o.shipping_email
    ) a
    join (
      select distinct on (o.shipping_email) o.shipping_email, o.id, o.shipping_info
        from orders o order by o.shipping_email, o.created_at desc, o.id desc
    ) l on l.shipping_email = a.email;
end;
$$;

-- Item changes, once per statement -----------------------------------------------------------
drop trigger admin_stats_items_change on order_items;
drop trigger admin_order_search_items on order_items;
drop function admin_stats_items_trigger();
drop function admin_stats_apply_item(order_items, integer);
drop function admin_order_search_items_trigger();

-- Adds (sign = 1) or removes (sign = -1) the revenue of changed items whose order exists and is
-- not failed. Items of an order being deleted find no order: its BEFORE DELETE trigger already
-- removed them with it.
create function admin_stats_apply_items(changed jsonb, sign integer) returns void
language plpgsql as $$
begin
  with items as (
    select i.order_id, i.category, i.quantity::bigint as quantity, i.price_cents::bigint * i.quantity as revenue
      from jsonb_to_recordset(changed) as i(order_id uuid, category text, quantity integer, price_cents integer)
  ), counted as (
    select (o.created_at at time zone 'UTC')::date as day, o.payment_method, i.category, i.quantity, i.revenue
      from items i join orders o on o.id = i.order_id
     where o.status <> 'failed'
  ), by_day as (
    select day, payment_method, sum(revenue) as revenue from counted group by day, payment_method
  ), days as (
    update admin_daily_stats s set revenue_cents = s.revenue_cents + sign * d.revenue
      from by_day d where s.day = d.day and s.payment_method = d.payment_method
  )
  insert into admin_category_stats as c (category, quantity, revenue_cents)
  select category, sign * sum(quantity), sign * sum(revenue) from counted group by category order by category
  on conflict (category) do update set
    quantity = c.quantity + excluded.quantity,
    revenue_cents = c.revenue_cents + excluded.revenue_cents;
end;
$$;

create function admin_items_inserted() returns trigger
language plpgsql as $$
begin
  perform admin_stats_apply_items((select jsonb_agg(to_jsonb(n)) from new_items n), 1);
  perform admin_order_search_refresh(x.order_id) from (select distinct order_id from new_items order by 1) x;
  return null;
end;
$$;

create function admin_items_deleted() returns trigger
language plpgsql as $$
begin
  perform admin_stats_apply_items((select jsonb_agg(to_jsonb(d)) from old_items d), -1);
  perform admin_order_search_refresh(x.order_id) from (select distinct order_id from old_items order by 1) x;
  return null;
end;
$$;

create function admin_items_updated() returns trigger
language plpgsql as $$
begin
  perform admin_stats_apply_items((select jsonb_agg(to_jsonb(d)) from old_items d), -1);
  perform admin_stats_apply_items((select jsonb_agg(to_jsonb(n)) from new_items n), 1);
  perform admin_order_search_refresh(x.order_id)
     from (select order_id from old_items union select order_id from new_items order by 1) x;
  return null;
end;
$$;

create trigger admin_items_insert after insert on order_items
  referencing new table as new_items for each statement execute function admin_items_inserted();
create trigger admin_items_delete after delete on order_items
  referencing old table as old_items for each statement execute function admin_items_deleted();
create trigger admin_items_update after update on order_items
  referencing old table as old_items new table as new_items
  for each statement execute function admin_items_updated();

select admin_stats_rebuild();
