import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './column-types';

/** better-auth's tables (users, sessions, accounts, verifications, its rate limits, two-factor secrets), as our migrations make them. */

export interface UsersTable {
  id: string;
  name: Generated<string>;
  email: string;
  email_verified: Generated<boolean>;
  image: string | null;
  role: Generated<'customer' | 'admin'>;
  /** 0015_two_factor.sql */
  two_factor_enabled: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  token: string;
  user_id: string;
  expires_at: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccountsTable {
  id: string;
  account_id: string;
  provider_id: string;
  user_id: string;
  access_token: string | null;
  refresh_token: string | null;
  id_token: string | null;
  access_token_expires_at: Timestamp | null;
  refresh_token_expires_at: Timestamp | null;
  scope: string | null;
  password: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VerificationsTable {
  id: string;
  identifier: string;
  value: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RateLimitsTable {
  id: string;
  key: string;
  count: number;
  last_request: ColumnType<string, number | bigint | string, number | bigint | string>;
}

/** 0015_two_factor.sql: better-auth's two-factor secrets (encrypted), one per user. */
export interface TwoFactorsTable {
  id: string;
  secret: string;
  backup_codes: string;
  user_id: string;
  verified: Generated<boolean>;
  failed_verification_count: Generated<number>;
  locked_until: Timestamp | null;
}
