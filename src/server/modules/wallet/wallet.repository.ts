import type { Db } from '#server/db/client';

/** wallet_links (one wallet per account) and wallet_challenges (one-time Sign In With Solana nonces). */
export function createWalletRepository(db: Db) {
  return {
    async findLink(userId: string) {
      return db
        .selectFrom('wallet_links')
        .select(['wallet_address', 'linked_at'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    async insertChallenge(c: {
      nonce: string;
      userId: string;
      address: string;
      issuedAt: Date;
      expiresAt: Date;
    }) {
      await db
        .insertInto('wallet_challenges')
        .values({
          nonce: c.nonce,
          user_id: c.userId,
          wallet_address: c.address,
          issued_at: c.issuedAt,
          expires_at: c.expiresAt,
        })
        .execute();
    },

    /**
     * Marks the user's unused challenge `nonce` used and returns it (null when unknown, someone
     * else's or already used): a signature answers one challenge once, even under racing requests.
     */
    async takeChallenge(userId: string, nonce: string, now: Date) {
      const row = await db
        .updateTable('wallet_challenges')
        .set({ used_at: now })
        .where('nonce', '=', nonce)
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .returning(['wallet_address', 'issued_at', 'expires_at'])
        .executeTakeFirst();
      return row ?? null;
    },

    /** Links `address` to the user, replacing their previous wallet and any other account's link to it. */
    async link(userId: string, address: string, now: Date): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('wallet_links')
          .where((eb) => eb.or([eb('user_id', '=', userId), eb('wallet_address', '=', address)]))
          .execute();
        await trx
          .insertInto('wallet_links')
          .values({ user_id: userId, wallet_address: address, linked_at: now })
          .execute();
      });
    },

    async unlink(userId: string): Promise<number> {
      const result = await db.deleteFrom('wallet_links').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async deleteChallengesBefore(before: Date): Promise<number> {
      const result = await db
        .deleteFrom('wallet_challenges')
        .where('expires_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
