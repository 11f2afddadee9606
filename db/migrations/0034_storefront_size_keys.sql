-- The storefront at 1,000,000 products (bench/storefront-scale.ts --products=1000000).
--
-- A size filter is a condition on the sizes array, which no btree index holds, so the grid's page
-- was found by walking an index in the page's order (newest, or price) and checking each product's
-- sizes until twelve matched. That costs the page size times how many products the walk passes per
-- match: nothing for a common size, the whole catalogue for a size the other filters almost never
-- carry. At a million products, women's leggings in XL by price (about 50 match) read every row
-- of products_price_idx and took 3.4 s; men's jackets in XS (none) 0.5 s.
--
-- product_size_keys() names what a product matches on by size: each size alone ('XL'), with its
-- gender ('womens/XL') and with its category ('womens-leggings/XL'). Its GIN index finds exactly
-- the products of one such key, however few, and the repository reads a rare filter's matches that
-- way and orders them in memory; product_counts (migration 0020) tells it how many there are before
-- it chooses (catalog.repository.ts).

create function product_size_keys(gender text, category text, sizes text[]) returns text[]
language sql immutable parallel safe as $$
  select coalesce(array_agg(k), '{}')
    from unnest(sizes) s, lateral (values (s), (gender || '/' || s), (category || '/' || s)) v (k)
$$;

create index products_size_keys_idx on products using gin (product_size_keys(gender, category, sizes));
