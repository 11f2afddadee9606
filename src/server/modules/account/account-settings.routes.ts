import { Hono } from 'hono';
import { ProfileSettingsInputSchema } from '#common/schemas/account-settings';
import { requireUser } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';
import type { AccountSettingsService } from './account-settings.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface AccountSettingsRoutesDeps {
  accountSettings: AccountSettingsService;
}

/**
 * GET /api/account/settings -> ProfileSettings (the signed-in customer's own);
 * PUT /api/account/settings {firstName, lastName, phone, address, city, state, zipCode, country,
 * notifications} -> ProfileSettings. An email in the body is ignored: it is the account's.
 */
export function accountSettingsRoutes(deps: AccountSettingsRoutesDeps): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get('/', async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await deps.accountSettings.get(c.var.user.id));
    })
    .put('/', validate('json', ProfileSettingsInputSchema), async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await deps.accountSettings.save(c.var.user.id, c.req.valid('json')));
    });
}
