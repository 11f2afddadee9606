import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { buttonClasses } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { AddProduct } from '../../../features/admin/products/components/add-product';
import { AdminPageHeader } from '../../layouts/admin-layout';

export function Component() {
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
