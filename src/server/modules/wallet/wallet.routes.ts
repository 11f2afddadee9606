import { Hono } from 'hono';
import {
  RewardsRequestSchema,
  WalletChallengeRequestSchema,
  WalletLinkRequestSchema,
} from '#common/schemas/wallet';
import { AppError } from '#server/lib/app-error';
import { requireUser } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';
import type { RewardsService } from '#server/modules/airdrops/rewards.service';
import type { WalletService } from './wallet.service';

/** What these routes use of the app's services (deps.ts builds them). */
export interface WalletRoutesDeps {
  rewards: RewardsService;
  wallet: WalletService;
}

/**
 * The signed-in customer's wallet (own account only):
 *   GET    /api/wallet                                   -> LinkedWallet
 *   POST   /api/wallet/challenge {address}               -> WalletSignInInput (sign it with solana:signIn)
 *   POST   /api/wallet/link {address, signedMessage, signature} -> LinkedWallet (400 if not proven)
 *   DELETE /api/wallet                                   -> LinkedWallet (unlinked)
 */
export function walletRoutes(deps: WalletRoutesDeps): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use(requireUser)
    .use(async (c, next) => {
      await next();
      c.header('Cache-Control', 'no-store');
    })
    .get('/', async (c) => c.json(await deps.wallet.get(c.var.user.id)))
    .post('/challenge', validate('json', WalletChallengeRequestSchema), async (c) =>
      c.json(await deps.wallet.challenge(c.var.user.id, c.req.valid('json').address)),
    )
    .post('/link', validate('json', WalletLinkRequestSchema), async (c) =>
      c.json(await deps.wallet.link(c.var.user.id, c.req.valid('json'))),
    )
    .delete('/', async (c) => c.json(await deps.wallet.unlink(c.var.user.id)));
}

/**
 * POST /api/rewards {walletAddress} -> Rewards: only for the wallet linked to the caller's account
 * (404 otherwise), so the shop is not a lookup service for anyone's wallet.
 */
export function rewardsRoutes(deps: WalletRoutesDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().post('/', requireUser, validate('json', RewardsRequestSchema), async (c) => {
    c.header('Cache-Control', 'no-store');
    const { walletAddress } = c.req.valid('json');
    const linked = await deps.wallet.get(c.var.user.id);
    if (linked.address !== walletAddress)
      throw new AppError('NOT_FOUND', 'No wallet with that address is linked to your account');
    return c.json(await deps.rewards.forWallet(walletAddress));
  });
}
