import { Hono } from 'hono';
import { MessageReplyInputSchema } from '#common/schemas/support-threads';
import { TicketCreateSchema } from '#common/schemas/tickets';
import { requireUser } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';
import { supportThreadsOf, type SupportThreadsRoutesDeps } from './support-threads.routes';
import type { TicketsService } from './tickets.service';

/** What these routes use of the app's services (deps.ts builds them); follow-ups are support threads'. */
export interface TicketsRoutesDeps extends SupportThreadsRoutesDeps {
  tickets: TicketsService;
}

/**
 * GET /api/tickets -> TicketList (the signed-in customer's own, newest first);
 * POST /api/tickets {category, subject, content} -> 201 Ticket;
 * POST /api/tickets/:id/replies {body} -> 201 MessageReply (a follow-up under the customer's own
 * ticket; another's is a 404, an archived one a 409).
 */
export function ticketsRoutes(deps: TicketsRoutesDeps): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get('/', async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await deps.tickets.list(c.var.user.id));
    })
    .post('/', validate('json', TicketCreateSchema), async (c) => {
      return c.json(await deps.tickets.create(c.var.user.id, c.req.valid('json')), 201);
    })
    .post('/:id/replies', validate('json', MessageReplyInputSchema), async (c) => {
      const reply = await supportThreadsOf(deps).customerReply(
        c.var.user.id,
        c.req.param('id'),
        c.req.valid('json').body,
      );
      return c.json(reply, 201);
    });
}
