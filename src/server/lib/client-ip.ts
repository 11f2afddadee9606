import { isIP } from 'node:net';
import type { Context } from 'hono';
import type { AppEnv } from './hono-env';

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

/** The client IP of a request served by @hono/node-server (undefined without a socket). */
export function clientIpOf(c: Context<AppEnv>): string | undefined {
  const peer = (c.env as NodeBindings | undefined)?.incoming?.socket?.remoteAddress;
  return resolveClientIp(peer, c.req.header('x-forwarded-for'));
}

/**
 * The client's IP address for rate limiting and session records.
 *
 * The socket's peer address is the truth, except when the peer is a proxy on a private network
 * (a load balancer or reverse proxy in front of the instances): then the last X-Forwarded-For hop,
 * the one our proxy appended, is the client. A client connecting straight from the internet
 * cannot choose its address this way. Requests without a socket (app.request in tests) have no
 * known IP: the per-email counter still limits their sign-ins (see auth.service.ts).
 */
export function resolveClientIp(
  peerAddress: string | undefined,
  forwardedFor: string | undefined,
): string | undefined {
  const peer = normalize(peerAddress);
  if (!peer) return undefined;
  if (isPrivateAddress(peer) && forwardedFor) {
    const hops = forwardedFor
      .split(',')
      .map((hop) => normalize(hop.trim()))
      .filter((hop): hop is string => hop !== undefined);
    const last = hops.at(-1);
    if (last) return last;
  }
  return peer;
}

function normalize(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped?.[1] ?? address;
  return isIP(ip) ? ip.toLowerCase() : undefined;
}

/** 127.0.0.0/8 and ::1: a client on the shop's own machine (the operator, or a proxy without X-Forwarded-For). */
export function isLoopbackAddress(ip: string): boolean {
  return ip === '::1' || (isIP(ip) === 4 && ip.startsWith('127.'));
}

/** Loopback, RFC 1918, link-local, and IPv6 unique-local / link-local addresses. */
export function isPrivateAddress(ip: string): boolean {
  if (isIP(ip) === 4) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    return (
      a === 10 ||
      a === 127 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254)
    );
  }
  if (isIP(ip) === 6) {
    const lower = ip.toLowerCase();
    return lower === '::1' || /^f[cd][0-9a-f]{2}:/.test(lower) || /^fe[89ab][0-9a-f]:/.test(lower);
  }
  return false;
}
