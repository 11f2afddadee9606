import { z } from 'zod';
import { AdminSearchSchema, PageQuerySchema, pageSchema, type Page } from './admin';

/** Admin customers: list query and the customer DTO. Routes: see admin.ts. */

export const CUSTOMER_SORTS = ['last_order', 'total_spent', 'total_orders'] as const;
export const CUSTOMER_SORT_LABELS: Record<(typeof CUSTOMER_SORTS)[number], string> = {
  last_order: 'Last Order Date',
  total_spent: 'Total Spent',
  total_orders: 'Total Orders',
};

export const AdminCustomersQuerySchema = z.object({
  search: AdminSearchSchema,
  sort: z
    .enum(CUSTOMER_SORTS, 'sort must be one of last_order, total_spent, total_orders')
    .default('last_order'),
  ...PageQuerySchema.shape,
});
export type AdminCustomersQuery = z.output<typeof AdminCustomersQuerySchema>;

/** One customer: the orders with this shipping email; the name is the latest order's. */
export const AdminCustomerSchema = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** Every order, failed ones included. */
  totalOrders: z.int(),
  /** Sum of amounts paid, failed (refunded) orders excluded. */
  totalSpentCents: z.int(),
  lastOrderAt: z.string(),
});
export type AdminCustomer = z.infer<typeof AdminCustomerSchema>;
export const AdminCustomerPageSchema = pageSchema(AdminCustomerSchema);
export type AdminCustomerPage = Page<AdminCustomer>;
