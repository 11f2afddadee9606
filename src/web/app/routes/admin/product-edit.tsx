import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { PageTitle } from '#web/components/page-title';
import { buttonClasses } from '#web/components/ui/button';
import { paths } from '#web/config/paths';
import { EditProduct } from '#web/features/admin/products/components/edit-product';
import { AdminPageHeader } from '#web/app/layouts/admin-layout';

export default function AdminProductEditPage() {
  const { id = '' } = useParams();
  const listHref = paths.admin.products.getHref();
  return (
    <>
      <PageTitle title="Edit Product · Admin" />
      <AdminPageHeader
        title="Edit Product"
        actions={
          <Link to={listHref} className={buttonClasses({ variant: 'outline', size: 'sm' })}>
            <ArrowLeft className="size-4" aria-hidden="true" />
            Back to Products
          </Link>
        }
      />
      <EditProduct key={id} id={id} listHref={listHref} />
    </>
  );
}
