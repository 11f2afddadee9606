import { BlockList, isIP } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './hono-env';

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

/**
 * The proxies whose X-Forwarded-For the shop believes: `TRUSTED_PROXIES`, a comma-separated list
 * of addresses and CIDR ranges (`10.0.0.0/8`, `::1`, `127.0.0.1`). Empty by default: then the
 * socket's peer is the client and no header can change that.
 */
export interface TrustedProxies {
  has(ip: string): boolean;
  readonly size: number;
}

/** Parses TRUSTED_PROXIES entries; throws on an entry that is neither an address nor a CIDR range. */
export function parseTrustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    const [address = '', prefix] = entry.split('/');
    const ip = normalize(address);
    const family = ip ? isIP(ip) : 0;
    if (!ip || family === 0) throw new Error(`not an IP address or CIDR range: ${entry}`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) {
      list.addAddress(ip, type);
    } else {
      const bits = Number(prefix);
      if (!/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128)) {
        throw new Error(`not an IP address or CIDR range: ${entry}`);
      }
      list.addSubnet(ip, bits, type);
    }
  }
  const size = entries.filter((e) => e.trim() !== '').length;
  return {
    size,
    has: (ip) => size > 0 && list.check(ip, isIP(ip) === 4 ? 'ipv4' : 'ipv6'),
  };
}

export const NO_TRUSTED_PROXIES: TrustedProxies = parseTrustedProxies([]);

/**
 * Middleware: resolves the client once per request: its address into `c.var.clientIp` (what is
 * recorded and shown), and the keys limits count it by into `c.var.clientKey` (an IPv6 /64) and
 * `c.var.clientNetworkKey` (an IPv6 /56).
 */
export function clientIpMiddleware(trusted: TrustedProxies): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const peer = (c.env as NodeBindings | undefined)?.incoming?.socket?.remoteAddress;
    const ip = resolveClientIp(peer, c.req.header('x-forwarded-for'), trusted);
    c.set('clientIp', ip);
    c.set('clientKey', clientKeyOf(ip));
    c.set('clientNetworkKey', clientNetworkKeyOf(ip));
    const viaProxy = peer !== undefined && trusted.has(normalize(peer) ?? peer);
    c.set('requestOrigin', requestOriginOf(c.req.raw, viaProxy));
    await next();
  };
}

/**
 * The origin a request was made to: its URL's (the Host header, the socket's protocol), or behind a
 * trusted proxy the first X-Forwarded-Host and X-Forwarded-Proto. A browser's write to the shop
 * says this origin in its Origin header whatever address it used (127.0.0.1, a LAN address), so
 * CSRF checks accept it beside PUBLIC_URL's (lib/csrf.ts). Undefined for a malformed host.
 */
export function requestOriginOf(request: Request, viaTrustedProxy: boolean): string | undefined {
  try {
    const url = new URL(request.url);
    let origin = url.origin;
    if (viaTrustedProxy) {
      const first = (name: string) => request.headers.get(name)?.split(',')[0]?.trim() || undefined;
      const proto = first('x-forwarded-proto');
      const scheme = proto === 'http' || proto === 'https' ? proto : url.protocol.slice(0, -1);
      const host = first('x-forwarded-host') ?? url.host;
      // A fresh URL: the host setter would keep the request's own port.
      origin = new URL(`${scheme}://${host}`).origin;
    }
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** The client IP of a request (undefined without a socket: app.request in tests). */
export function clientIpOf(c: Context<AppEnv>): string | undefined {
  return c.var.clientIp;
}

/**
 * A client as the limits see it: its address (recorded, shown in session lists), the key it is
 * counted by (an IPv6 /64) and its network's key (an IPv6 /56; the address itself for IPv4).
 */
export interface ClientKeys {
  ip: string;
  key: string;
  network: string;
}

/** The client of a request as its limits count it; undefined without a socket (app.request in tests). */
export function clientKeysOf(c: Context<AppEnv>): ClientKeys | undefined {
  const { clientIp: ip, clientKey: key, clientNetworkKey: network } = c.var;
  return ip && key && network ? { ip, key, network } : undefined;
}

/** The keys of an address (a service given only the address). */
export function clientKeysFor(ip: string | undefined): ClientKeys | undefined {
  const key = clientKeyOf(ip);
  const network = clientNetworkKeyOf(ip);
  return ip && key && network ? { ip, key, network } : undefined;
}

/**
 * The client's IP address for rate limits, stock holds and session records.
 *
 * The socket's peer address is the truth unless the peer is one of the configured trusted proxies.
 * Then X-Forwarded-For is read from the right (each proxy appends the address it received from):
 * hops that are themselves trusted proxies are skipped, and the first hop that is not is the
 * client. Anything left of it was written by the client and is never read. A hop that is not an IP
 * address, or that claims to be loopback or unspecified, ends the walk at the proxy that passed it
 * on: a forwarded value can never make a client look local.
 */
export function resolveClientIp(
  peerAddress: string | undefined,
  forwardedFor: string | undefined,
  trusted: TrustedProxies = NO_TRUSTED_PROXIES,
): string | undefined {
  const peer = normalize(peerAddress);
  if (!peer) return undefined;
  if (!forwardedFor || !trusted.has(peer)) return peer;
  const hops = forwardedFor.split(',').map((hop) => hop.trim());
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalize(hops[i]);
    if (!hop || isLoopbackAddress(hop) || isUnspecifiedAddress(hop)) return client;
    client = hop;
    if (!trusted.has(hop)) return client;
  }
  return client;
}

function normalize(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped?.[1] ?? address;
  return isIP(ip) ? ip.toLowerCase() : undefined;
}

/** 127.0.0.0/8 and ::1. */
export function isLoopbackAddress(ip: string): boolean {
  return ip === '::1' || (isIP(ip) === 4 && ip.startsWith('127.'));
}

function isUnspecifiedAddress(ip: string): boolean {
  return ip === '0.0.0.0' || ip === '::';
}

/** The bits of an IPv6 address that name one client (a home or a server gets a whole /64). */
export const IPV6_CLIENT_PREFIX = 64;
/** The bits that name one network: a provider hands a customer up to a /56. */
export const IPV6_NETWORK_PREFIX = 56;

/**
 * The key that counts as one client for limits, holds and throttles: an IPv4 address as it is, an
 * IPv6 address by its /64 (`2001:db8:1:2::/64`), since anyone with one IPv6 address can use any
 * of the 2^64 in its /64. Undefined without an address.
 */
export function clientKeyOf(ip: string | undefined): string | undefined {
  return ip === undefined ? undefined : prefixKey(ip, IPV6_CLIENT_PREFIX);
}

/**
 * The key of the client's network, the wider bound a limit keeps beside the per-client one: an
 * IPv6 address by its /56, an IPv4 address as it is (one address is already a whole network).
 */
export function clientNetworkKeyOf(ip: string | undefined): string | undefined {
  return ip === undefined ? undefined : prefixKey(ip, IPV6_NETWORK_PREFIX);
}

function prefixKey(ip: string, bits: number): string {
  if (isIP(ip) !== 6) return ip;
  const groups = expandIpv6(ip);
  const kept: number[] = [];
  for (let i = 0; i < 8; i++) {
    const start = i * 16;
    if (start >= bits) break;
    const keep = Math.min(16, bits - start);
    kept.push(keep === 16 ? groups[i]! : groups[i]! & (0xffff << (16 - keep)) & 0xffff);
  }
  return `${kept.map((g) => g.toString(16)).join(':')}::/${bits}`;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, an embedded IPv4 tail read). */
function expandIpv6(ip: string): number[] {
  let text = ip.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((g) => parseInt(g, 16));
}
