import { PackageSearch, Pencil, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ADMIN_MESSAGES } from '#common/schemas/admin';
import { formatUsd } from '#common/money';
import { categoryLabel, type Category, type Gender, type Product } from '#common/schemas/product';
import { Alert } from '#web/components/ui/alert';
import { Button, buttonClasses } from '#web/components/ui/button';
import { ConfirmDialog } from '#web/components/ui/confirm';
import { SearchInput } from '#web/components/ui/search-input';
import { Segmented } from '#web/components/ui/segmented';
import { Select } from '#web/components/ui/select';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api-client';
import { useLiveEvents } from '#web/lib/live-events';
import { adminProductKeys } from '../api/products-keys';
import { EmptyState } from '#web/features/admin/shared/components/empty-state';
import { DataTable, type DataColumn } from '#web/features/admin/shared/components/data-table';
import { ListPage } from '#web/features/admin/shared/components/list-page';
import { useListParams } from '#web/features/admin/shared/hooks/use-list-params';
import { useFlash } from '#web/features/admin/shared/hooks/use-flash';
import { useDeleteProduct } from '../api/delete-product';
import { useAdminProducts } from '../api/get-admin-products';
import { useProductCategories } from '../api/get-product-categories';
import { SizeChips } from './product-size-chips';

const GENDER_FILTERS = [
  { value: 'all', label: 'All Products' },
  { value: 'womens', label: "Women's" },
  { value: 'mens', label: "Men's" },
] as const;

export interface ProductsListProps {
  /** Where a product's edit form is. */
  editHref: (id: string) => string;
}

/** The admin product list: gender buttons, search, category dropdown, rows with edit and delete. */
export function ProductsList({ editHref }: ProductsListProps) {
  const list = useListParams<{ gender: 'all' | Gender; category: 'all' | Category }>({
    gender: 'all',
    category: 'all',
  });
  const { search, page } = list;
  const { gender, category } = list.filters;
  const [toDelete, setToDelete] = useState<Product | null>(null);
  const [flash, setFlash] = useFlash();

  useLiveEvents({ 'admin:products': [adminProductKeys.all] });
  const products = useAdminProducts({ gender, search, category, page });
  const categories = useProductCategories();
  const remove = useDeleteProduct();
  const columns = useMemo(() => productColumns(editHref, setToDelete), [editHref]);

  const rows = products.data?.items ?? [];

  const confirmDelete = () => {
    if (!toDelete) return;
    const title = toDelete.title;
    remove.mutate(toDelete.id, {
      onSuccess: () => {
        setToDelete(null);
        setFlash(`Deleted “${title}”`);
      },
    });
  };

  return (
    <ListPage
      toolbar={
        <>
          <Segmented
            label="Gender"
            options={GENDER_FILTERS}
            value={gender}
            onChange={(value) => list.setFilter('gender', value)}
          />
          <SearchInput
            label="Search products"
            placeholder="Search products..."
            value={list.searchText}
            onChange={(e) => list.setSearchText(e.target.value)}
            wrapperClassName="sm:ml-auto sm:w-64"
          />
          <Select
            aria-label="Category"
            size="sm"
            value={category}
            onChange={(e) => list.setFilter('category', e.target.value as 'all' | Category)}
            wrapperClassName="sm:w-52"
          >
            <option value="all">All Categories</option>
            {(categories.data?.categories ?? []).map((c) => (
              <option key={c.value} value={c.value}>
                {c.label || categoryLabel(c.value)}
              </option>
            ))}
          </Select>
        </>
      }
      notice={
        flash ? (
          <Alert variant="success" className="mb-4">
            {flash}
          </Alert>
        ) : null
      }
      query={products}
      error={errorMessage(products.error, 'Failed to load products')}
      loading={<ProductsSkeleton />}
      isEmpty={rows.length === 0}
      empty={<EmptyState icon={PackageSearch} title={ADMIN_MESSAGES.noProducts} />}
      noun="products"
      onPageChange={list.setPage}
      after={
        <ConfirmDialog
          open={toDelete !== null}
          id="delete-product"
          title="Delete product"
          message={
            <>
              {ADMIN_MESSAGES.confirmDeleteProduct}
              {toDelete ? (
                <span className="mt-2 block font-medium text-stone-900">{toDelete.title}</span>
              ) : null}
            </>
          }
          confirmLabel="Delete"
          isBusy={remove.isPending}
          error={remove.isError ? errorMessage(remove.error, 'Failed to delete product') : undefined}
          onConfirm={confirmDelete}
          onCancel={() => {
            setToDelete(null);
            remove.reset();
          }}
        />
      }
    >
      <div className="hidden md:block">
        <DataTable label="Products" minWidth="52rem" columns={columns} data={rows} getRowId={(p) => p.id} />
      </div>

      <ul aria-label="Products" className="space-y-3 md:hidden">
        {rows.map((product) => (
          <li key={product.id} className="rounded-2xl bg-white p-4 ring-1 ring-stone-200/80">
            <ProductIdentity product={product} />
            <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
              <div>
                <dt className="text-xs text-stone-500">Price</dt>
                <dd className="mt-0.5">
                  <Price product={product} />
                </dd>
              </div>
              <div>
                <dt className="text-xs text-stone-500">Stock</dt>
                <dd className="mt-0.5 tabular-nums">
                  <StockCount product={product} />
                </dd>
              </div>
              <div>
                <dt className="text-xs text-stone-500">Sizes</dt>
                <dd className="mt-1">
                  <SizeChips product={product} />
                </dd>
              </div>
              <div>
                <dt className="text-xs text-stone-500">Colors</dt>
                <dd className="mt-0.5 text-stone-700">{product.colors.join(', ')}</dd>
              </div>
            </dl>
            <div className="mt-4 flex justify-end border-t border-stone-100 pt-3">
              <RowActions product={product} editHref={editHref} onDelete={setToDelete} withLabels />
            </div>
          </li>
        ))}
      </ul>
    </ListPage>
  );
}

function productColumns(
  editHref: (id: string) => string,
  onDelete: (product: Product) => void,
): DataColumn<Product>[] {
  return [
    {
      id: 'product',
      header: 'Product',
      meta: { cellClassName: 'max-w-md' },
      cell: ({ row: { original: product } }) => <ProductIdentity product={product} />,
    },
    {
      id: 'price',
      header: 'Price',
      meta: { cellClassName: 'whitespace-nowrap' },
      cell: ({ row: { original: product } }) => <Price product={product} />,
    },
    {
      id: 'sizes',
      header: 'Sizes',
      meta: { cellClassName: 'min-w-36' },
      cell: ({ row: { original: product } }) => <SizeChips product={product} />,
    },
    {
      id: 'colors',
      header: 'Colors',
      meta: { cellClassName: 'max-w-40 text-stone-600' },
      cell: ({ row: { original: product } }) => product.colors.join(', '),
    },
    {
      id: 'stock',
      header: 'Stock',
      meta: { headerClassName: 'text-right', cellClassName: 'text-right tabular-nums' },
      cell: ({ row: { original: product } }) => <StockCount product={product} />,
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      meta: { headerClassName: 'text-right', cellClassName: 'text-right whitespace-nowrap' },
      cell: ({ row: { original: product } }) => (
        <RowActions product={product} editHref={editHref} onDelete={onDelete} />
      ),
    },
  ];
}

function ProductIdentity({ product }: { product: Product }) {
  const image = product.images[0];
  return (
    <div className="flex min-w-0 items-center gap-3.5">
      <div className="size-14 shrink-0 overflow-hidden rounded-xl bg-stone-100 ring-1 ring-stone-200/80">
        {image ? (
          <img
            src={image.url}
            srcSet={image.srcset || undefined}
            sizes="56px"
            alt=""
            loading="lazy"
            className="size-full object-cover"
          />
        ) : null}
      </div>
      <div className="min-w-0">
        <p className="font-medium [overflow-wrap:anywhere] text-stone-950">{product.title}</p>
        <p className="text-xs [overflow-wrap:anywhere] text-stone-500">
          {product.brand} · {categoryLabel(product.category)}
        </p>
        {product.description ? (
          <p className="mt-0.5 line-clamp-1 text-xs text-stone-500">{product.description}</p>
        ) : null}
      </div>
    </div>
  );
}

function Price({ product }: { product: Product }) {
  return (
    <span className="tabular-nums">
      <span className="font-medium text-stone-950">{formatUsd(product.priceCents)}</span>
      {product.originalPriceCents !== null ? (
        <span className="ml-1.5 text-xs text-stone-500 line-through">
          {formatUsd(product.originalPriceCents)}
        </span>
      ) : null}
    </span>
  );
}

function RowActions({
  product,
  editHref,
  onDelete,
  withLabels = false,
}: {
  product: Product;
  editHref: (id: string) => string;
  onDelete: (product: Product) => void;
  /** Icon and text (cards on small screens); icons only in the table. */
  withLabels?: boolean;
}) {
  if (withLabels) {
    return (
      <span className="flex gap-2">
        <Link
          to={editHref(product.id)}
          aria-label={`Edit ${product.title}`}
          className={buttonClasses({ variant: 'outline', size: 'sm' })}
        >
          <Pencil className="size-3.5" aria-hidden="true" />
          Edit
        </Link>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => onDelete(product)}
          aria-label={`Delete ${product.title}`}
          className="text-red-600 hover:bg-red-50 hover:text-red-700"
        >
          <Trash2 className="size-3.5" aria-hidden="true" />
          Delete
        </Button>
      </span>
    );
  }
  return (
    <span className="inline-flex gap-1">
      <Link
        to={editHref(product.id)}
        aria-label={`Edit ${product.title}`}
        title="Edit"
        className="inline-flex size-9 items-center justify-center rounded-full text-stone-500 transition-colors hover:bg-stone-100 hover:text-stone-950"
      >
        <Pencil className="size-4" aria-hidden="true" />
      </Link>
      <button
        type="button"
        onClick={() => onDelete(product)}
        aria-label={`Delete ${product.title}`}
        title="Delete"
        className="inline-flex size-9 items-center justify-center rounded-full text-stone-500 transition-colors hover:bg-red-50 hover:text-red-600"
      >
        <Trash2 className="size-4" aria-hidden="true" />
      </button>
    </span>
  );
}

function ProductsSkeleton() {
  return (
    <div role="status" className="rounded-2xl bg-white p-4 ring-1 ring-stone-200/80">
      <span className="sr-only">Loading products</span>
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} className="flex items-center gap-4 border-b border-stone-100 py-3 last:border-0">
          <Skeleton className="size-14 shrink-0 rounded-xl" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-3 w-1/2" />
          </div>
          <Skeleton className="hidden h-4 w-16 sm:block" />
          <Skeleton className="hidden h-4 w-24 md:block" />
        </div>
      ))}
    </div>
  );
}

/** Units on hand, and those held by open checkouts apart (they come back if the checkout ends unpaid). */
function StockCount({ product }: { product: Product }) {
  return (
    <>
      {product.quantity}
      {product.reservedQuantity ? (
        <span className="block text-xs font-normal text-amber-700">{product.reservedQuantity} reserved</span>
      ) : null}
    </>
  );
}
