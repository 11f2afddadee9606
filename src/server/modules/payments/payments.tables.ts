/**
 * Kysely types of the columns db/migrations/0002_checkout.sql adds, merged into the table types
 * of db/schema.ts (module augmentation: the schema file belongs to the foundation; fold these into
 * it when it is next edited).
 */
declare module '../../db/schema' {
  interface PaymentsTable {
    account_password_hash: string | null;
    account_outcome: 'created' | 'existing' | null;
    stripe_payment_intent_id: string | null;
  }
}

export {};
