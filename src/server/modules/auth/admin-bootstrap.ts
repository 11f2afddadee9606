import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '#server/lib/app-error';
import { ADVISORY_LOCK_KEYS, withAdvisoryLock } from '#server/db/locks';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import type { Logger } from '#server/lib/logger';
import type { AuthService } from './auth.service';

/** What the admin bootstrap uses of the app's services (deps.ts builds them). */
export interface AdminBootstrapDeps {
  auth: AuthService;
  config: Config;
  database: Database;
  logger: Logger;
}

export const DEMO_ADMIN_EMAIL = 'admin@shop.local';
export const ADMIN_CREDENTIALS_FILE = 'admin-credentials.txt';

/**
 * Makes sure the shop has an admin, at every start (main.ts), under an advisory lock so that
 * instances starting together do it one after the other.
 *
 * - ADMIN_EMAIL + ADMIN_PASSWORD: that user exists, is an admin and has exactly that password
 *   (checked every start, re-hashed when it differs). An existing customer with that email is
 *   promoted. Whenever the role or the password changes, the user's sessions are revoked, so a
 *   session opened before (by whoever registered the address) never becomes an admin session.
 * - Otherwise, when no admin exists: admin@shop.local with a generated password, shown once in
 *   the log and on stdout and written to DATA_DIR/admin-credentials.txt (mode 0600).
 *   When an admin exists: nothing.
 */
export async function bootstrapAdmin(deps: AdminBootstrapDeps): Promise<void> {
  const { config, logger, auth, database } = deps;
  const log = logger.child({ module: 'admin-bootstrap' });

  await withAdvisoryLock(database, ADVISORY_LOCK_KEYS.adminBootstrap, async () => {
    if (config.adminEmail && config.adminPassword) {
      try {
        await ensureAdmin(deps, config.adminEmail, config.adminPassword);
      } catch (err) {
        // A common or blank ADMIN_PASSWORD stops the start with a message naming the variable.
        if (err instanceof AppError && err.code === 'VALIDATION_FAILED') {
          throw new Error(`ADMIN_PASSWORD: ${err.fields?.password ?? err.message}`, { cause: err });
        }
        throw err;
      }
      log.info({ email: config.adminEmail }, 'admin account ensured from ADMIN_EMAIL');
      return;
    }
    if (config.adminEmail || config.adminPassword) {
      log.warn('ADMIN_EMAIL and ADMIN_PASSWORD must be set together; ignoring the one that is set');
    }
    if (await auth.hasAdmin()) return;

    const password = randomBytes(18).toString('base64url');
    await ensureAdmin(deps, DEMO_ADMIN_EMAIL, password);
    const file = path.join(config.dataDir, ADMIN_CREDENTIALS_FILE);
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(
      file,
      `# Created by the shop on first start. Sign in at ${config.publicUrl}/admin/login,\n` +
        `# then keep the password somewhere safe and delete this file.\n` +
        `email=${DEMO_ADMIN_EMAIL}\npassword=${password}\n`,
      { mode: 0o600 },
    );
    chmodSync(file, 0o600);
    // The logger drops fields named password, so the password is part of the message itself.
    const message = `Created admin ${DEMO_ADMIN_EMAIL} with password ${password} (also written to ${file}). Shown once.`;
    log.warn({ email: DEMO_ADMIN_EMAIL, file }, message);
    process.stdout.write(`\n  ${message}\n\n`);
  });
}

async function ensureAdmin(
  deps: AdminBootstrapDeps,
  email: string,
  password: string,
  retried = false,
): Promise<void> {
  const { auth } = deps;
  const existing = await auth.findUserByEmail(email);
  if (!existing) {
    try {
      await auth.createUser({ email, password, name: 'Admin', role: 'admin' });
      return;
    } catch (err) {
      // Someone signed up with this address a moment ago: promote that account instead.
      if (!(err instanceof AppError && err.code === 'CONFLICT') || retried) throw err;
      return ensureAdmin(deps, email, password, true);
    }
  }
  let changed = false;
  if (existing.role !== 'admin') {
    await auth.setRole(existing.id, 'admin');
    changed = true;
  }
  if (!(await auth.verifyPassword(existing.id, password))) {
    await auth.setPassword(existing.id, password);
    changed = true;
  }
  if (changed) await auth.revokeSessions(existing.id);
}
