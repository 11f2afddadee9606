/**
 * The account fields' limits, without zod: pages show them (a password hint) before the schemas
 * that enforce them (schemas/auth.ts) have loaded.
 */
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
