import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { PageTitle } from '#web/components/page-title';
import { buttonClasses } from '#web/components/ui/button';
import { paths } from '#web/config/paths';
import { AddProduct } from '#web/features/admin/products/components/add-product';
import { AdminPageHeader } from '#web/app/layouts/admin-layout';

export default function AdminProductAddPage() {
  const listHref = paths.admin.products.getHref();
  return (
    <>
      <PageTitle title="Add Product · Admin" />
      <AdminPageHeader
        title="Add New Product"
        actions={
          <Link to={listHref} className={buttonClasses({ variant: 'outline', size: 'sm' })}>
            <ArrowLeft className="size-4" aria-hidden="true" />
            Back to Products
          </Link>
        }
      />
      <AddProduct listHref={listHref} />
    </>
  );
}
