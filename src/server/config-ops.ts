import { z } from 'zod';
import { optionalString } from './config-fields';

/**
 * What an operator wires up around the server: the Prometheus endpoint, the shutdown bound and an
 * optional Redis shared by the instances.
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
  /**
   * Optional Redis (redis://, rediss://): rate-limit counters and the live-event fan-out go there
   * instead of PostgreSQL. Unset (the default): both stay in PostgreSQL. Every instance must agree.
   */
  REDIS_URL: optionalString.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
  /** Prefix of this shop's Redis keys and channels (several shops, or tests, may share one Redis). */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_:.-]{1,64}$/, 'REDIS_PREFIX: letters, digits, _ : . - (at most 64)')
    .default('shop:'),
});

type OpsEnv = z.infer<typeof OpsEnvSchema>;

export function opsConfigOf(env: OpsEnv) {
  return {
    /** GET /metrics: on only with a token (METRICS_TOKEN). */
    metrics: { token: env.METRICS_TOKEN ?? null },
    /** The longest graceful shutdown; past it the process exits 1 (SHUTDOWN_TIMEOUT_MS). */
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    /** Redis for the cross-instance counters and live events; undefined = PostgreSQL does both. */
    redis: env.REDIS_URL ? { url: env.REDIS_URL, prefix: env.REDIS_PREFIX } : undefined,
  };
}
