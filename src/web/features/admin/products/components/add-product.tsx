import { useNavigate } from 'react-router';
import { useCreateProduct } from '../api/create-product';
import { ProductForm } from './product-form';

/** The add form: saves, then goes back to the list. */
export function AddProduct({ listHref }: { listHref: string }) {
  const navigate = useNavigate();
  const create = useCreateProduct();
  return (
    <ProductForm
      submitLabel="Save Product"
      failureMessage="Failed to save product"
      cancelTo={listHref}
      onSave={async (input) => {
        await create.mutateAsync(input);
        void navigate(listHref);
      }}
    />
  );
}
