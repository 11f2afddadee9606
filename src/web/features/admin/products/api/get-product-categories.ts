import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AdminCategoryList } from '#common/schemas/admin-products';
import { apiClient } from '#web/lib/api-client';
import { adminProductKeys } from './products-keys';

/** GET /api/admin/product-categories: the categories found in the data, with display labels. */
export function getProductCategories(signal?: AbortSignal): Promise<AdminCategoryList> {
  return apiClient.get<AdminCategoryList>(ADMIN_API.productCategories, { signal });
}

export function productCategoriesQueryOptions() {
  return queryOptions({
    queryKey: adminProductKeys.categories(),
    queryFn: ({ signal }) => getProductCategories(signal),
  });
}

export function useProductCategories() {
  return useQuery(productCategoriesQueryOptions());
}
