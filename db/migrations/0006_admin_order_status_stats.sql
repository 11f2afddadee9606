-- Admin summaries, third step (follows 0005_admin_triggers_lock_order.sql): orders per status.
--
-- admin_order_status_stats counts orders per (status, UTC day, payment method), kept by a trigger
-- on orders, so the orders screen's total for a status filter is a few hundred rows to add up
-- instead of an index walk over every order of that status. A new order takes the row of its own
-- (day, method), the same granularity as admin_daily_stats, so it adds no new point of
-- contention; a status change updates its two rows in one statement in key order.

create table admin_order_status_stats (
  status text not null,
  day date not null,
  payment_method text not null,
  orders integer not null default 0,
  primary key (status, day, payment_method)
);

create function admin_status_stats_trigger() returns trigger
language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into admin_order_status_stats as s (status, day, payment_method, orders)
    values (new.status, (new.created_at at time zone 'UTC')::date, new.payment_method, 1)
    on conflict (status, day, payment_method) do update set orders = s.orders + 1;
  elsif tg_op = 'DELETE' then
    update admin_order_status_stats s set orders = s.orders - 1
     where s.status = old.status and s.day = (old.created_at at time zone 'UTC')::date
       and s.payment_method = old.payment_method;
  else
    insert into admin_order_status_stats as s (status, day, payment_method, orders)
    select v.status, v.day, v.payment_method, v.orders
      from (values (old.status, (old.created_at at time zone 'UTC')::date, old.payment_method, -1),
                   (new.status, (new.created_at at time zone 'UTC')::date, new.payment_method, 1))
           as v(status, day, payment_method, orders)
     order by v.status, v.day, v.payment_method
    on conflict (status, day, payment_method) do update set orders = s.orders + excluded.orders;
  end if;
  return null;
end;
$$;

create trigger admin_status_stats_insert after insert on orders
  for each row execute function admin_status_stats_trigger();
create trigger admin_status_stats_delete after delete on orders
  for each row execute function admin_status_stats_trigger();
-- Only when the key moves (the two rows of one statement must differ).
create trigger admin_status_stats_update after update on orders
  for each row when (
    old.status <> new.status
    or old.payment_method <> new.payment_method
    or (old.created_at at time zone 'UTC')::date <> (new.created_at at time zone 'UTC')::date
  )
  execute function admin_status_stats_trigger();

create or replace function admin_stats_rebuild() returns void
language plpgsql as $$
begin
  delete from admin_daily_stats;
  delete from admin_category_stats;
  delete from admin_customer_stats;
  delete from admin_order_status_stats;

  insert into admin_order_status_stats (status, day, payment_method, orders)
  select o.status, (o.created_at at time zone 'UTC')::date, o.payment_method, count(*)
    from orders o group by 1, 2, 3;

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

select admin_stats_rebuild();
