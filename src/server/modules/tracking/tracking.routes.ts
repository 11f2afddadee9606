import { Hono } from 'hono';
import { TrackingInfoRequestSchema } from '#common/schemas/tracking';
import { AppError } from '#server/lib/app-error';
import { requireUser } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';
import { createRateLimiter } from '#server/db/rate-limiter';
import { validate } from '#server/lib/validate';
import type { Database } from '#server/db/client';
import type { CustomerOrdersService } from '#server/modules/orders/customer-orders.service';
import type { TrackingService } from './tracking.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface TrackingRoutesDeps {
  customerOrders: CustomerOrdersService;
  database: Database;
  tracking: TrackingService;
}

/**
 * POST /api/tracking-info {trackingNumber} -> TrackingInfo: only for a number on one of the
 * caller's own orders (404 otherwise: the shop is no free carrier lookup), 60 a minute per customer.
 */
export function trackingRoutes(deps: TrackingRoutesDeps): Hono<AppEnv> {
  const rateLimiter = createRateLimiter(deps.database.db);
  return new Hono<AppEnv>().post('/', requireUser, validate('json', TrackingInfoRequestSchema), async (c) => {
    c.header('Cache-Control', 'no-store');
    const userId = c.var.user.id;
    await rateLimiter.consume('tracking-info', userId, { max: 60, windowSeconds: 60 });
    const { trackingNumber } = c.req.valid('json');
    if (!(await deps.customerOrders.ownsTrackingNumber(userId, trackingNumber))) {
      throw new AppError('NOT_FOUND', 'Tracking number not found');
    }
    return c.json(await deps.tracking.track(trackingNumber));
  });
}
