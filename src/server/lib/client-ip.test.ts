import { describe, expect, it } from 'vitest';
import {
  clientKeyOf,
  clientNetworkKeyOf,
  isLoopbackAddress,
  parseTrustedProxies,
  resolveClientIp,
} from './client-ip';

const none = parseTrustedProxies([]);
const lb = parseTrustedProxies(['10.0.0.0/8', '127.0.0.1']);

describe('resolveClientIp', () => {
  it('is unknown without a socket', () => {
    expect(resolveClientIp(undefined, '203.0.113.7', lb)).toBeUndefined();
  });

  it('with no trusted proxies (the default), the peer is the client whatever the header says', () => {
    expect(resolveClientIp('198.51.100.4', '203.0.113.7', none)).toBe('198.51.100.4');
    expect(resolveClientIp('10.0.0.2', '203.0.113.7', none)).toBe('10.0.0.2');
    expect(resolveClientIp('203.0.113.9', '1.2.3.4, 127.0.0.1', none)).toBe('203.0.113.9');
    expect(resolveClientIp('127.0.0.1', '203.0.113.7', none)).toBe('127.0.0.1');
    expect(resolveClientIp('::ffff:198.51.100.4', undefined, none)).toBe('198.51.100.4');
  });

  it('ignores X-Forwarded-For from a peer that is not a configured proxy', () => {
    expect(resolveClientIp('192.168.1.5', '203.0.113.7', lb)).toBe('192.168.1.5');
  });

  it('behind trusted proxies, counts hops from the right and stops at the first untrusted one', () => {
    expect(resolveClientIp('10.0.0.2', '1.2.3.4, 203.0.113.7', lb)).toBe('203.0.113.7');
    expect(resolveClientIp('10.0.0.2', '1.2.3.4, 203.0.113.7, 10.0.0.9', lb)).toBe('203.0.113.7');
    expect(resolveClientIp('127.0.0.1', '2001:db8::1', lb)).toBe('2001:db8::1');
  });

  it('never lets a forwarded value make the client loopback', () => {
    // A client ending its own header with 127.0.0.1: the proxy appends the real address after it.
    expect(resolveClientIp('10.0.0.2', '127.0.0.1, 203.0.113.7', lb)).toBe('203.0.113.7');
    // A forwarded loopback or unspecified hop ends the walk at the proxy that passed it on.
    expect(resolveClientIp('10.0.0.2', '127.0.0.1', lb)).toBe('10.0.0.2');
    expect(resolveClientIp('10.0.0.2', '::1', lb)).toBe('10.0.0.2');
    expect(resolveClientIp('10.0.0.2', '0.0.0.0', lb)).toBe('10.0.0.2');
  });

  it('falls back to the proxy address when the forwarded header is unusable', () => {
    expect(resolveClientIp('10.0.0.2', 'not-an-ip', lb)).toBe('10.0.0.2');
    expect(resolveClientIp('10.0.0.2', '', lb)).toBe('10.0.0.2');
    expect(resolveClientIp('10.0.0.2', '203.0.113.7, junk', lb)).toBe('10.0.0.2');
  });
});

describe('parseTrustedProxies', () => {
  it('accepts addresses and CIDR ranges of both families', () => {
    const list = parseTrustedProxies(['10.0.0.0/8', ' 192.168.0.1 ', 'fd00::/8', '::1']);
    expect(list.has('10.200.3.4')).toBe(true);
    expect(list.has('192.168.0.1')).toBe(true);
    expect(list.has('192.168.0.2')).toBe(false);
    expect(list.has('fd12::5')).toBe(true);
    expect(list.has('::1')).toBe(true);
    expect(list.has('127.0.0.1')).toBe(false);
  });

  it('refuses what is not an address or a range', () => {
    expect(() => parseTrustedProxies(['nginx'])).toThrow(/nginx/);
    expect(() => parseTrustedProxies(['10.0.0.0/33'])).toThrow(/10\.0\.0\.0\/33/);
  });
});

describe('isLoopbackAddress', () => {
  it('knows 127.0.0.0/8 and ::1, and nothing else', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('127.10.0.3')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
    expect(isLoopbackAddress('fd00::1')).toBe(false);
  });
});

describe('clientKeyOf / clientNetworkKeyOf', () => {
  it('keys an IPv4 client by its address', () => {
    expect(clientKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetworkKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf(undefined)).toBeUndefined();
  });

  it('keys every address of one IPv6 /64 as one client, and of one /56 as one network', () => {
    const a = clientKeyOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:db8:1:2::1')).toBe(a);
    expect(clientKeyOf('2001:DB8:1:2:ffff::')).toBe(a);
    expect(clientKeyOf('2001:db8:1:3::1')).not.toBe(a);
    expect(clientKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetworkKeyOf('2001:db8:1:2ff:aaaa::1')).toBe('2001:db8:1:200::/56');
    expect(clientNetworkKeyOf('2001:db8:1:2::1')).toBe(clientNetworkKeyOf('2001:db8:1:20::9'));
    expect(clientNetworkKeyOf('2001:db8:1:100::1')).not.toBe(clientNetworkKeyOf('2001:db8:1:2::1'));
    expect(clientKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(clientKeyOf('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });
});
