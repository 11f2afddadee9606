import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { z } from 'zod';
import { TransactionRequestInputSchema, type TransactionRequestResponse } from '#common/schemas/chain';
import { PaymentReferenceSchema } from '#common/schemas/checkout';
import type { AppEnv } from './hono-env';
import { validate } from './validate';

const ReferenceParamSchema = z.object({ reference: PaymentReferenceSchema });

/** What a Solana Pay wallet shows before it asks for the account (GET of a transaction request). */
export function solanaPayLabel(publicUrl: string) {
  return { label: 'Aelo', icon: `${publicUrl}/favicon.svg` };
}

/**
 * A Solana Pay transaction request endpoint at `<mount>/:reference`: GET answers the label and
 * icon; POST {account} answers `transactionFor(reference, account)`, the transaction for that
 * account to sign and send. Wallets call it from anywhere (CORS *, no cookies; mount it under a
 * CSRF-exempt path); the reference is the capability, every amount the server's.
 */
export function transactionRequestRoutes(options: {
  publicUrl: string;
  transactionFor: (reference: string, account: string) => Promise<TransactionRequestResponse>;
}): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use('*', cors({ origin: '*', allowMethods: ['GET', 'POST', 'OPTIONS'], allowHeaders: ['Content-Type'] }))
    .get('/:reference', validate('param', ReferenceParamSchema), (c) =>
      c.json(solanaPayLabel(options.publicUrl)),
    )
    .post(
      '/:reference',
      validate('param', ReferenceParamSchema),
      validate('json', TransactionRequestInputSchema),
      async (c) => {
        c.header('Cache-Control', 'no-store');
        const { reference } = c.req.valid('param');
        return c.json(await options.transactionFor(reference, c.req.valid('json').account));
      },
    );
}
