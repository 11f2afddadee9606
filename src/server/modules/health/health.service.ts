import type { Database } from '#server/db/client';
import { migrationFiles } from '#server/db/migrate';
import type { Lifecycle } from '#server/lib/lifecycle';
import { createHealthRepository } from './health.repository';

export type Readiness =
  | { ready: true }
  | { ready: false; reason: 'shutting-down' | 'database-unavailable' }
  | { ready: false; reason: 'migrations-missing'; missing: string[] };

export interface HealthService {
  /**
   * Ready for traffic: not shutting down, the database answers, and every migration this build
   * ships (db/migrations) is recorded in schema_migrations.
   */
  readiness(): Promise<Readiness>;
}

export function createHealthService(deps: {
  database: Database;
  lifecycle: Lifecycle;
  migrationsDir: string;
}): HealthService {
  // The build's migrations do not change while it runs: listed once.
  const shipped = migrationFiles(deps.migrationsDir);
  const repository = createHealthRepository(deps.database.db);
  return {
    async readiness() {
      if (deps.lifecycle.isDraining) return { ready: false, reason: 'shutting-down' };
      let applied: Set<string>;
      try {
        applied = new Set(await repository.findAppliedMigrationNames());
      } catch {
        // Out of reach, or not even schema_migrations: either way nothing should be sent here.
        return { ready: false, reason: 'database-unavailable' };
      }
      // Shutting down may have begun while the database answered.
      if (deps.lifecycle.isDraining) return { ready: false, reason: 'shutting-down' };
      const missing = shipped.filter((name) => !applied.has(name));
      return missing.length > 0 ? { ready: false, reason: 'migrations-missing', missing } : { ready: true };
    },
  };
}
