import { clientKeysFor, type ClientKeys } from './client-ip';
import type { RateLimiter, RateLimitRule } from './rate-limit';

/**
 * Limits counted per client: an IPv6 client by its /64, and its /56 (one customer's network) at
 * `multiplier` times the client's limit, so neither the 2^64 addresses of a /64 nor the 256 /64s
 * of a /56 make more clients. An IPv4 address is its own network: one count.
 */

/** The rule a client's network gets: `multiplier` times as many in the same window. */
export function networkRule(rule: RateLimitRule, multiplier: number): RateLimitRule {
  return { max: rule.max * multiplier, windowSeconds: rule.windowSeconds };
}

/** Whether a client has a network wider than itself to bound (IPv6). */
export function hasWiderNetwork(client: ClientKeys): boolean {
  return client.network !== client.key;
}

/**
 * Counts one request of `client` in `scope`: against `rule` for the client's key, then against
 * `multiplier` times it for the client's network. Past either it throws RateLimitedError with
 * `message`.
 */
export async function consumeClientLimit(
  limiter: RateLimiter,
  scope: string,
  client: ClientKeys,
  rule: RateLimitRule,
  multiplier: number,
  message?: string,
): Promise<void> {
  await limiter.consume(scope, client.key, rule, message);
  if (hasWiderNetwork(client)) {
    await limiter.consume(`${scope}:network`, client.network, networkRule(rule, multiplier), message);
  }
}

/**
 * Counts one request against the network bound alone, for a limit whose per-client count is kept
 * elsewhere: better-auth counts sign-ups per client itself (its `ipv6Subnet`, a /64), the shop
 * bounds the /56 here.
 */
export async function consumeNetworkLimit(
  limiter: RateLimiter,
  scope: string,
  ip: string | undefined,
  rule: RateLimitRule,
  multiplier: number,
  message?: string,
): Promise<void> {
  const client = clientKeysFor(ip);
  if (client && hasWiderNetwork(client)) {
    await limiter.consume(`${scope}:network`, client.network, networkRule(rule, multiplier), message);
  }
}
