import { address, isAddress, isOffCurveAddress, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS } from '@solana-program/compute-budget';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { TOKEN_2022_PROGRAM_ADDRESS } from '@solana-program/token-2022';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { z } from 'zod';
import { TransactionRequestInputSchema, type TransactionRequestResponse } from '#common/schemas/chain';
import { PaymentReferenceSchema } from '#common/schemas/checkout';
import { AppError } from './app-error';
import type { AppEnv } from './hono-env';
import { validate } from './validate';

const ReferenceParamSchema = z.object({ reference: PaymentReferenceSchema });

/** What a Solana Pay wallet shows before it asks for the account (GET of a transaction request). */
export function solanaPayLabel(shopName: string, publicUrl: string) {
  return { label: shopName, icon: `${publicUrl}/favicon.svg` };
}

/** The owners of programs and sysvars (the loaders, the sysvar program): no account of theirs pays. */
const PROGRAM_OWNERS = new Set<string>([
  'NativeLoader1111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'Sysvar1111111111111111111111111111111111111',
]);

/** The programs a handed-out transaction calls, known without asking the chain. */
const KNOWN_PROGRAMS = new Set<string>([
  SYSTEM_PROGRAM_ADDRESS,
  TOKEN_PROGRAM_ADDRESS,
  TOKEN_2022_PROGRAM_ADDRESS,
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
  ...PROGRAM_OWNERS,
]);

/** The shop's chain as the check needs it (the chain service, which lib/ may not import). */
export interface PayingAccountChain {
  accounts(): Promise<{
    treasury: { address: string } | null;
    shopWallet: string;
    shopTokenAccount: string;
    mint: string;
  } | null>;
  rpc: Rpc<SolanaRpcApi>;
}

export const PAYING_ACCOUNT_MESSAGES = {
  invalid: 'account: Invalid Solana address',
  shop: "account: This is one of the shop's own accounts; pay from your own wallet",
  program: 'account: This is a program, not a wallet; pay from your own wallet',
  offCurve: 'account: This address cannot sign a transaction; pay from your own wallet',
} as const;

function refuse(message: string): never {
  throw new AppError('VALIDATION_FAILED', message, { account: message.slice('account: '.length) });
}

/**
 * The `account` a wallet names must be one that can sign and pay: a wallet address, not the shop's
 * own accounts (its treasury, its receiving wallet and token account, the mint), nor a program or a
 * sysvar, nor an address off the curve (a program-derived one: no key signs for it). Each is the
 * wallet's error (400); left to the transaction's making, some would end in a 500.
 */
async function assertPayingAccount(text: string, chain: PayingAccountChain): Promise<void> {
  if (!isAddress(text)) refuse(PAYING_ACCOUNT_MESSAGES.invalid);
  const account = address(text);
  if (KNOWN_PROGRAMS.has(account)) refuse(PAYING_ACCOUNT_MESSAGES.program);
  if (isOffCurveAddress(account)) refuse(PAYING_ACCOUNT_MESSAGES.offCurve);
  const shop = await chain.accounts().catch(() => null);
  const own = [shop?.treasury?.address, shop?.shopWallet, shop?.shopTokenAccount, shop?.mint];
  if (own.includes(account)) refuse(PAYING_ACCOUNT_MESSAGES.shop);
  // Any other program or sysvar, as the chain knows it (a chain that does not answer leaves it to the wallet).
  const found = await chain.rpc
    .getAccountInfo(account, { encoding: 'base64', dataSlice: { offset: 0, length: 0 } })
    .send()
    .catch(() => null);
  const info = found?.value;
  if (info && (info.executable || PROGRAM_OWNERS.has(info.owner))) refuse(PAYING_ACCOUNT_MESSAGES.program);
}

/**
 * A Solana Pay transaction request endpoint at `<mount>/:reference`: GET answers the label and
 * icon; POST {account} answers `transactionFor(reference, account)`, the transaction for that
 * account to sign and send, once the account is one that can pay (assertPayingAccount). Wallets
 * call it from anywhere (CORS *, no cookies; mount it under a CSRF-exempt path); the reference is
 * the capability, every amount the server's.
 */
export function transactionRequestRoutes(options: {
  shopName: string;
  publicUrl: string;
  chain: PayingAccountChain;
  transactionFor: (reference: string, account: string) => Promise<TransactionRequestResponse>;
}): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use('*', cors({ origin: '*', allowMethods: ['GET', 'POST', 'OPTIONS'], allowHeaders: ['Content-Type'] }))
    .get('/:reference', validate('param', ReferenceParamSchema), (c) =>
      c.json(solanaPayLabel(options.shopName, options.publicUrl)),
    )
    .post(
      '/:reference',
      validate('param', ReferenceParamSchema),
      validate('json', TransactionRequestInputSchema),
      async (c) => {
        c.header('Cache-Control', 'no-store');
        const { reference } = c.req.valid('param');
        const { account } = c.req.valid('json');
        await assertPayingAccount(account, options.chain);
        return c.json(await options.transactionFor(reference, account));
      },
    );
}
