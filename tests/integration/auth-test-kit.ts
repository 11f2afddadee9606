/**
 * What the account tests share (auth, auth-rate-limits and auth-admin): one scratch database of a
 * backend per file (opening PGlite is the slow part), the app instances a file starts on it, each
 * with its own configuration, and the requests and answers they read.
 */
import { expect } from 'vitest';
import type { ErrorBody } from '#common/errors';
import { type Database } from '#server/db/client';
import {
  createScratchDatabase,
  warnIfPostgresSkipped,
  type Backend,
  type ScratchDatabase,
} from '../helpers/databases';
import { openTestDatabase, startTestApp, type TestApp, type TestClient } from '../helpers/test-app';
import { signUpAndIn } from '../helpers/sign-up';

export const PASSWORD = 'correct horse battery';
/** Most tests sign in many times: the rate-limit tests run on their own app with a low limit. */
export const RELAXED_LIMIT = { SIGN_IN_RATE_LIMIT: '1000', SIGN_UP_RATE_LIMIT: '1000' };

let emailCounter = 0;
export const uniqueEmail = (label: string) => `${label}-${++emailCounter}@example.com`;

export async function errorOf(res: Response): Promise<ErrorBody['error']> {
  return ((await res.json()) as ErrorBody).error;
}

export function sessionCookieOf(res: Response): string | undefined {
  return res.headers.getSetCookie().find((c) => /^(__Secure-)?shop\.session_token=[^;]/.test(c));
}

/** A new account, signed in on `client` (sign-up itself never signs in). */
export async function signUp(client: TestClient, email: string, password = PASSWORD) {
  const res = await signUpAndIn(client, { email, password });
  expect(res.status).toBe(200);
  return ((await res.json()) as { user: { id: string; email: string; role: string } }).user;
}

export async function me(client: TestClient) {
  const res = await client.get('/api/auth/me');
  expect(res.status).toBe(200);
  return ((await res.json()) as { user: { id: string; email: string; name: string; role: string } | null })
    .user;
}

/**
 * A file's database and the apps on it: `t` with the relaxed limits, more through `startApp`;
 * `close` closes every app in `apps` (last started first), then the database.
 */
export interface AccountsApp {
  scratch: ScratchDatabase;
  database: Database;
  t: TestApp;
  apps: TestApp[];
  startApp: (env: Record<string, string>) => Promise<TestApp>;
  close(): Promise<void>;
}

export async function openAccounts(backend: Backend): Promise<AccountsApp> {
  warnIfPostgresSkipped();
  const scratch = await createScratchDatabase(backend);
  const apps: TestApp[] = [];
  let database: Database | undefined;
  const close = async () => {
    for (const app of apps.reverse()) await app.close();
    await database?.close();
    await scratch.drop();
  };
  try {
    const opened = await openTestDatabase(scratch, { poolSize: 5 });
    database = opened;
    const startApp = async (env: Record<string, string>) => {
      const app = await startTestApp({ backend, scratch, database: opened, env });
      apps.push(app);
      return app;
    };
    const t = await startApp(RELAXED_LIMIT);
    return { scratch, database: opened, t, apps, startApp, close };
  } catch (error) {
    await close();
    throw error;
  }
}
