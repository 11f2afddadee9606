import { Hono } from 'hono';
import { TicketCreateSchema } from '#common/schemas/tickets';
import type { AppDeps } from '#server/deps';
import { requireUser } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';

/**
 * GET /api/tickets -> TicketList (the signed-in customer's own, newest first);
 * POST /api/tickets {category, subject, content} -> 201 Ticket.
 */
export function ticketsRoutes(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get('/', async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await deps.tickets.list(c.var.user.id));
    })
    .post('/', validate('json', TicketCreateSchema), async (c) => {
      return c.json(await deps.tickets.create(c.var.user.id, c.req.valid('json')), 201);
    });
}
