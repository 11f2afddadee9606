import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import { PageTitle } from '#web/components/page-title';
import { buttonClasses } from '#web/components/ui/button';
import { paths } from '#web/config/paths';
import { ProductsList } from '#web/features/admin/products/components/products-list';
import { AdminPageHeader } from '#web/app/layouts/admin-layout';

export default function AdminProductsPage() {
  return (
    <>
      <PageTitle title="Products · Admin" />
      <AdminPageHeader
        title="Products"
        description="Everything in the shop, newest first."
        actions={
          <Link to={paths.admin.productAdd.getHref()} className={buttonClasses({ size: 'sm' })}>
            <Plus className="size-4" aria-hidden="true" />
            Add Product
          </Link>
        }
      />
      <ProductsList editHref={paths.admin.productEdit.getHref} />
    </>
  );
}
