import { Hono, type Context } from 'hono';
import { AdminAirdropsQuerySchema, AirdropProcessInputSchema } from '#common/schemas/admin-airdrops';
import { AuditQuerySchema } from '#common/schemas/admin-audit';
import { AdminCustomersQuerySchema } from '#common/schemas/admin-customers';
import {
  AdminMessagesQuerySchema,
  MessagePriorityUpdateSchema,
  MessageStatusUpdateSchema,
} from '#common/schemas/admin-messages';
import { OutboxMailParamsSchema, OutboxQuerySchema } from '#common/schemas/admin-outbox';
import { AdminOrdersQuerySchema, AdminOrderUpdateSchema } from '#common/schemas/admin-orders';
import { AdminProductPatchSchema, AdminProductsQuerySchema } from '#common/schemas/admin-products';
import { AdminSettingUpdateSchema, SettingParamsSchema } from '#common/schemas/admin-settings';
import { ProductInputSchema } from '#common/schemas/product';
import { RefundInputSchema } from '#common/schemas/refund';
import { MessageReplyInputSchema } from '#common/schemas/support-threads';
import { AdminTokenPurchasesQuerySchema } from '#common/schemas/token-sale';
import { AppError } from '#server/lib/app-error';
import { requireAdmin } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';
import type { AdminActor } from '../audit/audit.service';
import { TWO_FACTOR_MESSAGES } from '../auth/auth-two-factor';
import { supportThreadsOf } from '../messages/support-threads.routes';
import { createAdminOutbox } from './admin-outbox';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import type { Logger } from '#server/lib/logger';
import type { AdminServices } from './admin.services';
import type { AuthService } from '#server/modules/auth/auth.service';
import type { EventHub } from '#server/modules/events/event-hub';
import type { MailService } from '#server/modules/mail/mail.service';
import type { RefundsService } from '#server/modules/refunds/refunds.service';
import type { TokenSalesService } from '#server/modules/token-sales/token-sales.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface AdminRoutesDeps {
  admin: AdminServices;
  auth: AuthService;
  config: Config;
  database: Database;
  events: EventHub;
  logger: Logger;
  mail: MailService;
  refunds: RefundsService;
  tokenSales: TokenSalesService;
}

/**
 * /api/admin: the back office's API (contract: src/common/schemas/admin.ts). requireAdmin runs
 * on the router itself, before any route or unknown path: 401 anonymous, 403 non-admin. Routes
 * only parse input and call one service function.
 */
export function adminRoutes(deps: AdminRoutesDeps): Hono<AppEnv> {
  const admin = deps.admin;
  const actor = (c: Context<AppEnv>): AdminActor => ({ id: c.var.user.id, email: c.var.user.email });

  const router = new Hono<AppEnv>();
  router.use('*', requireAdmin);
  router.use('*', async (c, next) => {
    if (deps.config.adminRequireTwoFactor && !(await deps.auth.twoFactorStatus(c.var.user.id)).enabled) {
      throw new AppError('FORBIDDEN', TWO_FACTOR_MESSAGES.required);
    }
    await next();
  });
  router.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  });

  // Dashboard, customers, analytics ------------------------------------------------------------
  router.get('/dashboard', async (c) => c.json(await admin.stats.dashboard()));
  router.get('/analytics', async (c) => c.json(await admin.stats.analytics()));
  router.get('/customers', validate('query', AdminCustomersQuerySchema), async (c) =>
    c.json(await admin.stats.customers(c.req.valid('query'))),
  );

  // Products -------------------------------------------------------------------------------------
  router.get('/products', validate('query', AdminProductsQuerySchema), async (c) =>
    c.json(await admin.products.list(c.req.valid('query'))),
  );
  router.get('/product-categories', async (c) => c.json(await admin.products.categories()));
  router.get('/products/:id', async (c) => c.json(await admin.products.get(c.req.param('id'))));
  router.post('/products', validate('json', ProductInputSchema), async (c) =>
    c.json(await admin.products.create(c.req.valid('json'), actor(c)), 201),
  );
  router.put('/products/:id', validate('json', ProductInputSchema), async (c) =>
    c.json(await admin.products.replace(c.req.param('id'), c.req.valid('json'), actor(c))),
  );
  router.patch('/products/:id', validate('json', AdminProductPatchSchema), async (c) =>
    c.json(await admin.products.patch(c.req.param('id'), c.req.valid('json'), actor(c))),
  );
  router.delete('/products/:id', async (c) =>
    c.json(await admin.products.remove(c.req.param('id'), actor(c))),
  );

  // Orders ---------------------------------------------------------------------------------------
  router.get('/orders', validate('query', AdminOrdersQuerySchema), async (c) =>
    c.json(await admin.orders.list(c.req.valid('query'))),
  );
  router.get('/orders/:id', async (c) => c.json(await admin.orders.get(c.req.param('id'))));
  router.patch('/orders/:id', validate('json', AdminOrderUpdateSchema), async (c) =>
    c.json(await admin.orders.update(c.req.param('id'), c.req.valid('json'), actor(c))),
  );
  router.delete('/orders/:id', async (c) => c.json(await admin.orders.remove(c.req.param('id'), actor(c))));
  // Refunds (full or partial, with a reason; carried out by the refund worker) ---------------------
  router.post('/orders/:id/refunds', validate('json', RefundInputSchema), async (c) =>
    c.json(await deps.refunds.refundOrder(c.req.param('id'), c.req.valid('json'), actor(c)), 201),
  );
  router.get('/refunds/:id/sign-request', async (c) =>
    c.json(await deps.refunds.signRequest(c.req.param('id'))),
  );

  // Audit log ------------------------------------------------------------------------------------
  router.get('/audit', validate('query', AuditQuerySchema), async (c) =>
    c.json(await admin.audit.list(c.req.valid('query'))),
  );
  router.get('/audit/actions', async (c) => c.json(await admin.audit.actions()));

  // Airdrops -------------------------------------------------------------------------------------
  router.get('/airdrops', validate('query', AdminAirdropsQuerySchema), async (c) =>
    c.json(await admin.airdrops.list(c.req.valid('query'))),
  );
  router.get('/airdrops/preview', async (c) => c.json(await admin.airdrops.preview()));
  router.post('/airdrops/process', validate('json', AirdropProcessInputSchema), async (c) =>
    c.json(await admin.airdrops.process(actor(c))),
  );

  // Token sales (Buy Token) ----------------------------------------------------------------------
  router.get('/token-purchases', validate('query', AdminTokenPurchasesQuerySchema), async (c) =>
    c.json(await deps.tokenSales.listForAdmin(c.req.valid('query'))),
  );

  // Messages -------------------------------------------------------------------------------------
  router.get('/messages', validate('query', AdminMessagesQuerySchema), async (c) =>
    c.json(await admin.messages.list(c.req.valid('query'))),
  );
  router.patch('/messages/:id/status', validate('json', MessageStatusUpdateSchema), async (c) =>
    c.json(await admin.messages.setStatus(c.req.param('id'), c.req.valid('json').status, actor(c))),
  );
  router.patch('/messages/:id/priority', validate('json', MessagePriorityUpdateSchema), async (c) =>
    c.json(await admin.messages.setPriority(c.req.param('id'), c.req.valid('json').priority, actor(c))),
  );
  // A message's thread, and the admin's reply (mailed to the sender, audited).
  router.get('/messages/:id/thread', async (c) =>
    c.json(await supportThreadsOf(deps).adminThread(c.req.param('id'))),
  );
  router.post('/messages/:id/replies', validate('json', MessageReplyInputSchema), async (c) =>
    c.json(
      await supportThreadsOf(deps).adminReply(c.req.param('id'), c.req.valid('json').body, actor(c)),
      201,
    ),
  );

  // Outbox: the mail queue, its dead letters and Send again (bodies with local mail only) ----------
  const outbox = createAdminOutbox({
    db: deps.database.db,
    isLocal: deps.config.mail.smtpUrl === null,
    mail: deps.mail,
    events: deps.events,
    logger: deps.logger,
  });
  router.get('/outbox', validate('query', OutboxQuerySchema), async (c) =>
    c.json(await outbox.list(c.req.valid('query'))),
  );
  router.get('/outbox-counts', async (c) => c.json(await outbox.counts()));
  router.get('/outbox/:id', async (c) => c.json(await outbox.get(c.req.param('id'))));
  router.post('/outbox/:id/resend', validate('param', OutboxMailParamsSchema), async (c) =>
    c.json(await outbox.resend(c.req.valid('param').id, actor(c))),
  );

  // Settings -------------------------------------------------------------------------------------
  router.get('/settings', async (c) => c.json(await admin.settings.list()));
  router.put(
    '/settings/:provider/:keyName',
    validate('param', SettingParamsSchema),
    validate('json', AdminSettingUpdateSchema),
    async (c) => {
      const { provider, keyName } = c.req.valid('param');
      return c.json(await admin.settings.update(provider, keyName, c.req.valid('json').value, actor(c)));
    },
  );
  router.delete('/settings/:provider/:keyName', validate('param', SettingParamsSchema), async (c) => {
    const { provider, keyName } = c.req.valid('param');
    return c.json(await admin.settings.remove(provider, keyName, actor(c)));
  });

  return router;
}
