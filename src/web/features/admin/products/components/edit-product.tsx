import { useNavigate } from 'react-router';
import { Alert } from '#web/components/ui/alert';
import { PageSpinner } from '#web/components/ui/spinner';
import { errorMessage } from '#web/lib/api-client';
import { useAdminProduct } from '../api/get-admin-product';
import { useUpdateProduct } from '../api/update-product';
import { ProductForm } from './product-form';

/** The edit form: a spinner until the product has loaded, then the same form as Add. */
export function EditProduct({ id, listHref }: { id: string; listHref: string }) {
  const navigate = useNavigate();
  const product = useAdminProduct(id);
  const update = useUpdateProduct();

  if (product.isPending) return <PageSpinner label="Loading product" />;
  if (product.isError) {
    return <Alert variant="error">{errorMessage(product.error, 'Failed to load product')}</Alert>;
  }
  return (
    <ProductForm
      key={product.data.id}
      product={product.data}
      submitLabel="Save Changes"
      failureMessage="Failed to update product"
      cancelTo={listHref}
      onSave={async (input) => {
        await update.mutateAsync({ id, input });
        void navigate(listHref);
      }}
    />
  );
}
