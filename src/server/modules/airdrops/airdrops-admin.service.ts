import { ADMIN_MESSAGES } from '#common/schemas/admin';
import { lamportsToSol } from '#common/crypto-amounts';
import {
  type AdminAirdrops,
  type AdminAirdropsQuery,
  type AirdropAge,
  type AirdropProcessResult,
} from '#common/schemas/admin-airdrops';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { AdminActor, AuditService } from '../audit/audit.service';
import { createAirdropsRepository } from './airdrops.repository';
import { pageWindow, toPage } from '#server/lib/pagination';

/**
 * The back office's airdrop screen: claims with stats, and 'Process Airdrop'. The rewards engine
 * that runs an airdrop is built by the rewards issue; until it plugs in here (`engine`), a run
 * answers 503 NOT_CONFIGURED and is audited as a failed process_airdrop.
 */
export interface AirdropEngine {
  /** What a run would pay now (recipients and total), without paying: the admin confirms it. */
  preview(): Promise<{ recipients: number; totalLamports: bigint }>;
  run(): Promise<{ recipients: number; totalLamports: bigint }>;
  /** When the scheduled daily top-50 airdrop runs next. */
  nextDailyAt(): Promise<Date | null>;
}

export interface AirdropsAdminService {
  list(query: AdminAirdropsQuery): Promise<AdminAirdrops>;
  /** The run 'Process Airdrop' would make now, for the confirmation (503 without an engine). */
  preview(): Promise<AirdropProcessResult>;
  process(actor: AdminActor): Promise<AirdropProcessResult>;
}

function toResult(result: { recipients: number; totalLamports: bigint }): AirdropProcessResult {
  return {
    recipients: result.recipients,
    totalAmountLamports: result.totalLamports.toString(),
    totalAmount: lamportsToSol(result.totalLamports),
  };
}

function ageOf(hours: number): AirdropAge {
  if (hours < 24) return '24h';
  if (hours < 168) return '7d';
  return 'older';
}

export function createAirdropsAdminService(deps: {
  db: Db;
  audit: AuditService;
  engine?: AirdropEngine | undefined;
}): AirdropsAdminService {
  const repo = createAirdropsRepository(deps.db);

  return {
    async list(query) {
      const [page, stats, nextDailyAt] = await Promise.all([
        repo.findPage({
          search: query.search,
          age: query.age === 'all' ? undefined : query.age,
          ...pageWindow(query),
        }),
        repo.stats(),
        deps.engine ? deps.engine.nextDailyAt() : Promise.resolve(null),
      ]);
      return {
        claims: toPage(
          page.rows.map((r) => ({
            id: r.id,
            walletAddress: r.walletAddress,
            amountLamports: r.amountLamports,
            amountSol: lamportsToSol(r.amountLamports),
            createdAt: r.createdAt.toISOString(),
            age: ageOf(r.ageHours),
            status: 'Claimed' as const,
          })),
          query,
          page.total,
        ),
        stats: { ...stats, totalSol: lamportsToSol(stats.totalLamports) },
        schedule: { nextDailyAt: nextDailyAt ? nextDailyAt.toISOString() : null },
      };
    },

    async preview() {
      if (!deps.engine) throw new AppError('NOT_CONFIGURED', ADMIN_MESSAGES.noAirdropEngine);
      return toResult(await deps.engine.preview());
    },

    async process(actor) {
      if (!deps.engine) {
        await deps.audit.recordAndAnnounce({
          action: 'process_airdrop',
          details: { success: false, error: ADMIN_MESSAGES.noAirdropEngine },
          actor,
        });
        throw new AppError('NOT_CONFIGURED', ADMIN_MESSAGES.noAirdropEngine);
      }
      try {
        const result = await deps.engine.run();
        await deps.audit.recordAndAnnounce({
          action: 'process_airdrop',
          details: {
            success: true,
            recipients: result.recipients,
            totalAmountLamports: result.totalLamports.toString(),
          },
          actor,
        });
        return toResult(result);
      } catch (err) {
        const message = err instanceof Error ? err.message : 'Failed to process airdrop';
        await deps.audit.recordAndAnnounce({
          action: 'process_airdrop',
          details: { success: false, error: message },
          actor,
        });
        throw err;
      }
    },
  };
}
