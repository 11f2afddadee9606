-- Stock per size (issue 40). A product whose sizes are tracked apart keeps its buyable units per
-- offered size in products.size_stock, e.g. {"XS": 1, "S": 3, "M": 0}; products.quantity stays the
-- product's buyable units and is always their sum. NULL (every existing product) is one quantity
-- shared by all sizes, as before.
--
-- Keeping the sizes in the product's own row means a checkout still takes its units with one
-- conditional update of that row (its row lock orders concurrent checkouts of any size), and the
-- rules below are plain CHECK constraints, true after every statement.
--
-- stock_reservations.size is the size a hold was taken for (the checkout line's size; NULL for
-- holds older than this migration and products without sizes). Units held for a tracked size go
-- back to that size when the hold ends.

-- A size_stock value is valid for a product when it names exactly the offered sizes, each with a
-- whole number of units >= 0, and its units add up to the product's quantity.
create function size_stock_valid(stock jsonb, sizes text[], total integer) returns boolean
language sql immutable as $$
  select jsonb_typeof(stock) = 'object'
    and not exists (
      select 1 from jsonb_each(stock) e
       where not (e.key = any (sizes))
          or jsonb_typeof(e.value) <> 'number'
          or case when jsonb_typeof(e.value) = 'number'
                  then (e.value)::numeric < 0 or (e.value)::numeric <> trunc((e.value)::numeric)
                  else true end
    )
    and (select count(*) from jsonb_each(stock)) = (select count(distinct s) from unnest(sizes) s)
    and (select coalesce(sum(case when jsonb_typeof(e.value) = 'number' then (e.value)::numeric end), 0)
           from jsonb_each(stock) e) = total
$$;

alter table products
  add column size_stock jsonb,
  add constraint products_size_stock_valid
    check (size_stock is null or size_stock_valid(size_stock, sizes, quantity));

alter table stock_reservations
  add column size text check (size is null or size in ('XS', 'S', 'M', 'L', 'XL'));
