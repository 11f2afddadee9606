import { Hono } from 'hono';
import { ContactInputSchema } from '#common/schemas/contact';
import { clientKeysOf } from '#server/lib/client-ip';
import type { AppEnv } from '#server/lib/hono-env';
import { createRateLimiter } from '#server/db/rate-limiter';
import { validate } from '#server/lib/validate';
import { createSupportThreadsService, type SupportThreadsService } from './support-threads.service';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import type { Logger } from '#server/lib/logger';
import type { EventHub } from '#server/modules/events/event-hub';
import type { MailService } from '#server/modules/mail/mail.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface SupportThreadsRoutesDeps {
  config: Config;
  database: Database;
  events: EventHub;
  logger: Logger;
  mail: MailService;
}

const services = new WeakMap<SupportThreadsRoutesDeps, SupportThreadsService>();

/** The support-threads service of this app (built once from its dependencies). */
export function supportThreadsOf(deps: SupportThreadsRoutesDeps): SupportThreadsService {
  let service = services.get(deps);
  if (!service) {
    service = createSupportThreadsService({
      db: deps.database.db,
      events: deps.events,
      mail: deps.mail,
      rateLimiter: createRateLimiter(deps.database.db),
      logger: deps.logger.child({ module: 'support' }),
      links: { publicUrl: deps.config.publicUrl, secret: deps.config.authSecret },
      networkLimitMultiplier: deps.config.networkLimitMultiplier,
    });
    services.set(deps, service);
  }
  return service;
}

/**
 * POST /api/contact {name, email, orderNumber?, message} -> 201 {id}: a guest's message to the
 * shop (no account), limited per client; it lands in the admin's Messages inbox.
 */
export function contactRoutes(deps: SupportThreadsRoutesDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().post('/', validate('json', ContactInputSchema), async (c) => {
    return c.json(await supportThreadsOf(deps).contact(c.req.valid('json'), clientKeysOf(c)), 201);
  });
}
