import type { Generated, JSONColumnType } from 'kysely';
import type { RewardPool } from '#common/rewards';
import type { BigSum, CreatedAt, Numeric, Timestamp } from './column-types';

/** The holder-rewards tables (0018_reward_pools.sql, docs/rewards.md) and airdrop_claims. */

export interface RewardPoolEntriesTable {
  id: Generated<string>;
  pool: RewardPool;
  amount_cents: BigSum;
  source: 'order' | 'payout' | 'opening';
  order_id: string | null;
  run_id: string | null;
  created_at: CreatedAt;
}

export interface HolderSnapshotsTable {
  id: Generated<string>;
  taken_at: CreatedAt;
  holder_count: number;
  /** [{ rank, owner, amount }] of the top 50 eligible holders; amount as a decimal string. */
  top: JSONColumnType<Array<{ rank: number; owner: string; amount: string }>>;
}

export type AirdropKind = 'top50' | 'random';

export interface AirdropRunsTable {
  id: Generated<string>;
  kind: AirdropKind;
  trigger: 'schedule' | 'admin';
  run_date: string | null;
  status: Generated<'sending' | 'completed' | 'failed'>;
  pool_cents: BigSum;
  sol_price_micros: BigSum;
  recipients: number;
  total_lamports: Numeric;
  snapshot_id: string | null;
  error: string | null;
  created_at: CreatedAt;
  completed_at: Timestamp | null;
}

export interface AirdropBatchesTable {
  id: Generated<string>;
  run_id: string;
  batch_no: number;
  status: Generated<'planned' | 'sent' | 'landed'>;
  signature: string | null;
  wire: string | null;
  last_valid_block_height: BigSum | null;
  attempts: Generated<number>;
  updated_at: Generated<Date>;
}

export interface AirdropScheduleTable {
  kind: 'random';
  next_at: Timestamp;
}

/** 0030_airdrop_first_seen.sql: when the engine first saw the database (one row). */
export interface AirdropFirstSeenTable {
  id: Generated<boolean>;
  at: Timestamp;
}

export interface AirdropClaimsTable {
  id: Generated<string>;
  wallet_address: string;
  amount_lamports: Numeric;
  kind: Generated<AirdropKind>;
  run_id: string | null;
  transaction_signature: string | null;
  status: Generated<'planned' | 'sent' | 'confirmed'>;
  batch_id: string | null;
  /** When it was paid: set again when its batch lands (the admin's age buckets read it). */
  created_at: Timestamp;
}
