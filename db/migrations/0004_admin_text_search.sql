-- Admin back office (issue 5): searches that stay fast at a million orders.
--
-- admin_order_search keeps one lower-cased text per order (id, shipping email, first and last
-- name, every item title), maintained by triggers inside the writing transaction. The orders
-- search reads it: `search_text ilike '%term%'` newest first. With pg_trgm (PostgreSQL) a trigram
-- index serves rare terms and the created_at index serves common ones (the planner picks from its
-- statistics); without pg_trgm (the embedded PGlite build) the same queries scan, which is fine at
-- that scale.
-- Trigram indexes are also added for the other admin searches (products, customers, audit log,
-- airdrop claims) when pg_trgm can be installed; nothing else depends on the extension.

create table admin_order_search (
  order_id uuid primary key references orders (id) on delete cascade,
  created_at timestamptz not null,
  search_text text not null
);
create index admin_order_search_created_idx on admin_order_search (created_at desc, order_id desc);

create function admin_order_search_text(o orders) returns text
language sql stable as $$
  select lower(
    o.id::text || ' ' || o.shipping_email || ' ' ||
    coalesce(o.shipping_info ->> 'firstName', '') || ' ' || coalesce(o.shipping_info ->> 'lastName', '') ||
    coalesce((select ' ' || string_agg(i.title, ' ' order by i.id) from order_items i where i.order_id = o.id), '')
  )
$$;

create function admin_order_search_refresh(p_order_id uuid) returns void
language plpgsql as $$
declare
  o orders;
begin
  select * into o from orders where id = p_order_id;
  if not found then
    return;
  end if;
  insert into admin_order_search (order_id, created_at, search_text)
  values (o.id, o.created_at, admin_order_search_text(o))
  on conflict (order_id) do update set created_at = excluded.created_at, search_text = excluded.search_text;
end;
$$;

create function admin_order_search_orders_trigger() returns trigger
language plpgsql as $$
begin
  perform admin_order_search_refresh(new.id);
  return null;
end;
$$;

create function admin_order_search_items_trigger() returns trigger
language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform admin_order_search_refresh(old.order_id);
  end if;
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.order_id <> old.order_id) then
    perform admin_order_search_refresh(new.order_id);
  end if;
  return null;
end;
$$;

create trigger admin_order_search_insert after insert on orders
  for each row execute function admin_order_search_orders_trigger();
create trigger admin_order_search_update after update on orders
  for each row when (
    old.shipping_email <> new.shipping_email
    or old.shipping_info is distinct from new.shipping_info
    or old.created_at <> new.created_at
  )
  execute function admin_order_search_orders_trigger();
create trigger admin_order_search_items after insert or update or delete on order_items
  for each row execute function admin_order_search_items_trigger();

-- Recomputes every row (backfill below, bulk loads).
create function admin_order_search_rebuild() returns void
language plpgsql as $$
begin
  delete from admin_order_search;
  insert into admin_order_search (order_id, created_at, search_text)
  select o.id, o.created_at,
         lower(o.id::text || ' ' || o.shipping_email || ' ' ||
               coalesce(o.shipping_info ->> 'firstName', '') || ' ' || coalesce(o.shipping_info ->> 'lastName', '') ||
               coalesce(' ' || t.titles, ''))
    from orders o
    left join (
      select i.order_id, string_agg(i.title, ' ' order by i.id) as titles from order_items i group by i.order_id
    ) t on t.order_id = o.id;
end;
$$;

select admin_order_search_rebuild();

-- Trigram indexes where pg_trgm is available ---------------------------------------------------
do $$
begin
  begin
    create extension if not exists pg_trgm;
  exception when others then
    raise notice 'pg_trgm is not available: admin searches scan instead of using trigram indexes';
    return;
  end;
  execute 'create index admin_order_search_text_trgm on admin_order_search using gin (search_text gin_trgm_ops)';
  execute 'create index products_title_trgm on products using gin (title gin_trgm_ops)';
  execute 'create index products_description_trgm on products using gin (description gin_trgm_ops)';
  execute 'create index products_brand_trgm on products using gin (brand gin_trgm_ops)';
  execute 'create index admin_customer_stats_email_trgm on admin_customer_stats using gin (email gin_trgm_ops)';
  execute 'create index admin_customer_stats_name_trgm on admin_customer_stats
             using gin ((first_name || '' '' || last_name) gin_trgm_ops)';
  execute 'create index admin_audit_log_action_trgm on admin_audit_log using gin (action gin_trgm_ops)';
  execute 'create index admin_audit_log_details_trgm on admin_audit_log using gin ((details::text) gin_trgm_ops)';
  execute 'create index airdrop_claims_wallet_trgm on airdrop_claims using gin (wallet_address gin_trgm_ops)';
  execute 'create index airdrop_claims_id_trgm on airdrop_claims using gin ((id::text) gin_trgm_ops)';
  execute 'create index messages_subject_trgm on messages using gin (subject gin_trgm_ops)';
  execute 'create index messages_content_trgm on messages using gin (content gin_trgm_ops)';
end;
$$;
