import { Hono } from 'hono';
import { CheckoutInputSchema } from '#common/schemas/checkout';
import { currentUser } from '#server/lib/auth-guards';
import { clientKeysOf } from '#server/lib/client-ip';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';
import type { CheckoutService } from './checkout.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface CheckoutRoutesDeps {
  checkout: CheckoutService;
}

/**
 * POST /api/checkout        CheckoutInput -> 201 CheckoutResponse (anonymous or signed in)
 * GET  /api/checkout/config -> CheckoutConfigResponse (which payment buttons to enable)
 */
export function checkoutRoutes(deps: CheckoutRoutesDeps): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get('/config', async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await deps.checkout.config());
    })
    .post('/', validate('json', CheckoutInputSchema), async (c) => {
      const result = await deps.checkout.startCheckout(
        c.req.valid('json'),
        await currentUser(c),
        clientKeysOf(c),
      );
      return c.json(result, 201);
    });
}
