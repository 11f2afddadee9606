-- The storefront at 100,000 products (issue 15, bench/storefront-scale.ts).
--
-- 1. The grid's total ("Showing 12 of 100,000") counted every matching product on each request: a
--    scan of the whole table for the plain list, a gender or a size (over 200 ms on a busy
--    machine at 100,000 products). product_counts keeps the counts per gender, category and size,
--    exact inside the writing transaction (triggers, as the admin summary tables do), so a total is
--    a sum over at most 18 rows whatever the catalogue's size. A row with size '' counts every
--    product of its gender and category; a row with a size counts those offered in that size.
--    product_counts_rebuild() recomputes it from scratch (backfill below, bulk loads, repairs).
-- 2. The price orders sorted the whole catalogue for each page: products_price_idx serves both
--    (price low to high directly, high to low read backwards with each price's few products
--    sorted), and the list's cursor gives it a bound (catalog.repository.ts).

create table product_counts (
  gender text not null,
  category text not null,
  size text not null,
  count integer not null,
  primary key (gender, category, size)
);

-- Applies one product's change: -1 on the rows of its old gender, category and sizes, +1 on the
-- new ones, in one statement taking its rows in key order (two writers never wait on each other
-- in opposite orders). Rows that cancel out (the product stayed where it was) are not touched.
create function product_counts_trigger() returns trigger
language plpgsql as $$
declare
  old_gender text;
  old_category text;
  old_sizes text[];
  new_gender text;
  new_category text;
  new_sizes text[];
begin
  if tg_op <> 'INSERT' then
    old_gender := old.gender;
    old_category := old.category;
    old_sizes := old.sizes;
  end if;
  if tg_op <> 'DELETE' then
    new_gender := new.gender;
    new_category := new.category;
    new_sizes := new.sizes;
  end if;
  insert into product_counts as c (gender, category, size, count)
  select d.gender, d.category, d.size, sum(d.delta)::integer
    from (
      select distinct old_gender, old_category, s, -1
        from unnest(array[''] || old_sizes) s
       where old_gender is not null
      union all
      select distinct new_gender, new_category, s, 1
        from unnest(array[''] || new_sizes) s
       where new_gender is not null
    ) d (gender, category, size, delta)
   group by d.gender, d.category, d.size
  having sum(d.delta) <> 0
   order by d.gender, d.category, d.size
  on conflict (gender, category, size) do update set count = c.count + excluded.count;
  return null;
end;
$$;

create trigger product_counts_insert after insert on products
  for each row execute function product_counts_trigger();
create trigger product_counts_update after update of gender, category, sizes on products
  for each row
  when (old.gender is distinct from new.gender or old.category is distinct from new.category
        or old.sizes is distinct from new.sizes)
  execute function product_counts_trigger();
create trigger product_counts_delete after delete on products
  for each row execute function product_counts_trigger();

create function product_counts_truncate_trigger() returns trigger
language plpgsql as $$
begin
  delete from product_counts;
  return null;
end;
$$;

create trigger product_counts_truncate after truncate on products
  for each statement execute function product_counts_truncate_trigger();

create function product_counts_rebuild() returns void
language plpgsql as $$
begin
  lock table products in share mode;
  delete from product_counts;
  insert into product_counts (gender, category, size, count)
  select p.gender, p.category, s.size, count(*)::integer
    from products p
   cross join lateral (select distinct x from unnest(array[''] || p.sizes) x) s (size)
   group by p.gender, p.category, s.size;
end;
$$;

select product_counts_rebuild();

create index products_price_idx on products (price_cents, created_at desc, id desc);
