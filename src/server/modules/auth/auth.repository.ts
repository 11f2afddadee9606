import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '#server/db/errors';
import type { Db } from '#server/db/client';

/**
 * The SQL the auth module runs beside better-auth, which reads and writes the same tables (users,
 * sessions, accounts, two_factors, rate_limits) through its Kysely adapter. A signed-in user's own
 * changes go through better-auth's API (sessions, password, email: auth-sessions.ts,
 * auth-email-change.ts); what stays here is what that API cannot do, since it acts only for the
 * signed-in user of a request:
 * - accounts made or changed by the server with no such request: checkout's account in the
 *   caller's transaction, the admin bootstrap's user, role, password and sign-out everywhere;
 * - the email confirmation's one transaction (confirmed, every session ended, with a new password
 *   two-factor off) that keeps an account from being hijacked (auth-email.ts), and marking a new
 *   address confirmed (better-auth's change of address keeps the old flag);
 * - the absolute session cap (better-auth has only idle expiry) and pruning its rate_limits rows;
 * - reads, such as the password hash the sign-in guard checks before better-auth's sign-in does.
 * The shop's own counters live in rate_limit_counters (db/counters.ts).
 */

/** better-auth's provider id for email + password accounts (accounts.account_id = users.id). */
export const CREDENTIAL_PROVIDER = 'credential';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: 'customer' | 'admin';
}

export interface NewUserRow {
  id: string;
  email: string;
  name: string;
  role: 'customer' | 'admin';
  passwordHash: string;
}

export class UniqueViolationError extends Error {
  override name = 'UniqueViolationError';
}

/** The email + password account of a user (better-auth's `credential` provider row). */
async function insertCredentialAccount(
  db: Db,
  userId: string,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await db
    .insertInto('accounts')
    .values({
      id: randomUUID(),
      account_id: userId,
      provider_id: CREDENTIAL_PROVIDER,
      user_id: userId,
      access_token: null,
      refresh_token: null,
      id_token: null,
      access_token_expires_at: null,
      refresh_token_expires_at: null,
      scope: null,
      password: passwordHash,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export function createAuthRepository(db: Db) {
  return {
    /**
     * A customer with an email + password account, in the caller's transaction, from a password
     * hash made earlier (at checkout). Null, changing nothing, when the email already has a user.
     */
    async insertCustomerIfAbsent(email: string, passwordHash: string): Promise<{ id: string } | null> {
      const now = new Date();
      const user = await db
        .insertInto('users')
        .values({ id: randomUUID(), email, name: '', role: 'customer', created_at: now, updated_at: now })
        .onConflict((oc) => oc.column('email').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!user) return null;
      await insertCredentialAccount(db, user.id, passwordHash, now);
      return user;
    },

    async findUserByEmail(email: string): Promise<UserRow | null> {
      const row = await db
        .selectFrom('users')
        .select(['id', 'email', 'name', 'role'])
        .where('email', '=', email)
        .executeTakeFirst();
      return row ?? null;
    },

    async isTwoFactorEnabled(id: string): Promise<boolean> {
      const row = await db
        .selectFrom('users')
        .select('two_factor_enabled')
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.two_factor_enabled === true;
    },

    async findEmailStatus(id: string): Promise<{ email: string; verified: boolean } | null> {
      const row = await db
        .selectFrom('users')
        .select(['email', 'email_verified'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? { email: row.email, verified: row.email_verified } : null;
    },

    /**
     * Marks the account's address confirmed while it is still `email` (a new address, just proven by
     * its own link: better-auth's change of address keeps the old flag).
     */
    async markEmailVerified(id: string, email: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ email_verified: true, updated_at: new Date() })
        .where('id', '=', id)
        .where('email', '=', email)
        .where('email_verified', '=', false)
        .execute();
    },

    /** The account a confirmation link names: its id, when it was created, whether confirmed. */
    async findAccountByEmail(
      email: string,
    ): Promise<{ id: string; email: string; createdAt: Date; verified: boolean } | null> {
      const row = await db
        .selectFrom('users')
        .select(['id', 'email', 'created_at', 'email_verified'])
        .where('email', '=', email)
        .executeTakeFirst();
      return row
        ? { id: row.id, email: row.email, createdAt: row.created_at, verified: row.email_verified }
        : null;
    },

    /**
     * Confirms the account's email in one transaction: marks it verified (false, changing nothing,
     * when it already was: one confirmation wins), deletes every session of the account, and with
     * `newPasswordHash` sets its password and turns two-factor off (both were chosen by whoever
     * made the account before the address was proven).
     */
    async confirmEmail(userId: string, newPasswordHash: string | null): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const now = new Date();
        const marked = await trx
          .updateTable('users')
          .set({
            email_verified: true,
            updated_at: now,
            ...(newPasswordHash ? { two_factor_enabled: false } : {}),
          })
          .where('id', '=', userId)
          .where('email_verified', '=', false)
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) === 0) return false;
        await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
        if (newPasswordHash) {
          await trx.deleteFrom('two_factors').where('user_id', '=', userId).execute();
          const updated = await trx
            .updateTable('accounts')
            .set({ password: newPasswordHash, updated_at: now })
            .where('user_id', '=', userId)
            .where('provider_id', '=', CREDENTIAL_PROVIDER)
            .where('account_id', '=', userId)
            .executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0)
            await insertCredentialAccount(trx, userId, newPasswordHash, now);
        }
        return true;
      });
    },

    async findUserById(id: string): Promise<UserRow | null> {
      const row = await db
        .selectFrom('users')
        .select(['id', 'email', 'name', 'role'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row ?? null;
    },

    async existsAdmin(): Promise<boolean> {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where('role', '=', 'admin')
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The user and their email + password account, in one transaction. Throws UniqueViolationError. */
    async insertUserWithPassword(user: NewUserRow): Promise<UserRow> {
      try {
        return await db.transaction().execute(async (trx) => {
          const now = new Date();
          const row = await trx
            .insertInto('users')
            .values({
              id: user.id,
              email: user.email,
              name: user.name,
              role: user.role,
              created_at: now,
              updated_at: now,
            })
            .returning(['id', 'email', 'name', 'role'])
            .executeTakeFirstOrThrow();
          await insertCredentialAccount(trx, user.id, user.passwordHash, now);
          return row;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new UniqueViolationError('user already exists', { cause: err });
        throw err;
      }
    },

    async findPasswordHash(userId: string): Promise<string | null> {
      const row = await db
        .selectFrom('accounts')
        .select('password')
        .where('user_id', '=', userId)
        .where('provider_id', '=', CREDENTIAL_PROVIDER)
        .where('account_id', '=', userId)
        .executeTakeFirst();
      return row?.password ?? null;
    },

    /** Sets the password of the user's email + password account, creating that account if missing. */
    async upsertPasswordHash(userId: string, passwordHash: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const now = new Date();
        const updated = await trx
          .updateTable('accounts')
          .set({ password: passwordHash, updated_at: now })
          .where('user_id', '=', userId)
          .where('provider_id', '=', CREDENTIAL_PROVIDER)
          .where('account_id', '=', userId)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) > 0) return;
        await insertCredentialAccount(trx, userId, passwordHash, now);
      });
    },

    async updateRole(userId: string, role: 'customer' | 'admin'): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ role, updated_at: new Date() })
        .where('id', '=', userId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async deleteSessionsOfUser(userId: string): Promise<number> {
      const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async deleteSessionById(sessionId: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
    },

    /** Deletes better-auth's rate-limit rows whose last request is older than `beforeMs`. */
    async deleteAuthRateLimitsBefore(beforeMs: number): Promise<number> {
      const result = await db
        .deleteFrom('rate_limits')
        .where('last_request', '<', String(beforeMs))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
