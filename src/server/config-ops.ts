import { z } from 'zod';
import { optionalString } from './config-fields';

/**
 * What an operator wires up around the server: the Prometheus endpoint and the shutdown bound.
 * Read from the environment by config.ts only (its EnvSchema spreads OpsEnvSchema's shape).
 */
export const OpsEnvSchema = z.object({
  /** Bearer token of GET /metrics (Prometheus); unset = no /metrics at all (404). */
  METRICS_TOKEN: optionalString.pipe(
    z
      .string()
      .min(16, 'METRICS_TOKEN must be at least 16 characters')
      .regex(/^[\x21-\x7e]+$/, 'METRICS_TOKEN must be printable ASCII without spaces')
      .optional(),
  ),
  /** How long a SIGTERM may take: in-flight requests and the jobs' current tick finish within it. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
});

type OpsEnv = z.infer<typeof OpsEnvSchema>;

export function opsConfigOf(env: OpsEnv) {
  return {
    /** GET /metrics: on only with a token (METRICS_TOKEN). */
    metrics: { token: env.METRICS_TOKEN ?? null },
    /** The longest graceful shutdown; past it the process exits 1 (SHUTDOWN_TIMEOUT_MS). */
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  };
}
