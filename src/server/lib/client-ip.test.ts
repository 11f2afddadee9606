import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, isPrivateAddress, resolveClientIp } from './client-ip';

describe('resolveClientIp', () => {
  it('is unknown without a socket', () => {
    expect(resolveClientIp(undefined, '203.0.113.7')).toBeUndefined();
  });

  it('uses the peer address of a direct client and ignores its X-Forwarded-For', () => {
    expect(resolveClientIp('198.51.100.4', '203.0.113.7')).toBe('198.51.100.4');
    expect(resolveClientIp('::ffff:198.51.100.4', undefined)).toBe('198.51.100.4');
  });

  it('behind a private proxy, takes the hop the proxy appended (the last one)', () => {
    expect(resolveClientIp('10.0.0.2', '1.2.3.4, 203.0.113.7')).toBe('203.0.113.7');
    expect(resolveClientIp('127.0.0.1', '2001:db8::1')).toBe('2001:db8::1');
  });

  it('falls back to the proxy address when the forwarded header is unusable', () => {
    expect(resolveClientIp('10.0.0.2', 'not-an-ip')).toBe('10.0.0.2');
    expect(resolveClientIp('10.0.0.2', '')).toBe('10.0.0.2');
  });
});

describe('isPrivateAddress', () => {
  it.each([
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['127.0.0.1', true],
    ['8.8.8.8', false],
    ['::1', true],
    ['fd12:3456::1', true],
    ['fe80::1', true],
    ['2001:db8::1', false],
  ])('%s -> %s', (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });
});

describe('isLoopbackAddress', () => {
  it('knows 127.0.0.0/8 and ::1, and nothing else', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('127.10.0.3')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
    expect(isLoopbackAddress('128.0.0.1')).toBe(false);
    expect(isLoopbackAddress('203.0.113.7')).toBe(false);
    expect(isLoopbackAddress('fd00::1')).toBe(false);
  });
});
