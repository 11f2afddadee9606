import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '#common/errors';
import { BACKENDS } from '../helpers/databases';
import {
  clientFor,
  createFixtures,
  fillPath,
  paramsFor,
  routeTable,
  SAMPLES,
  type Fixtures,
  type Role,
  type RouteEntry,
} from '../helpers/route-table';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Property-based tests (fast-check) over every route of the router, as a visitor, a customer and
 * an admin: random JSON bodies and mutations of each route's valid sample, random query strings
 * and random path ids (UUIDs, unicode, '../', huge numbers, very long strings). Never a 500; and a
 * refused request (4xx) changes no table (a checksum of every table before and after). On a
 * failure fast-check prints the seed and the shrunk counterexample.
 */

/**
 * Tables a refused request may legitimately change, left out of the checksum:
 * - rate_limits, rate_limit_counters: refused sign-ins and password checks are what they count;
 * - sessions: reading a session refreshes its last-active time and expiry (better-auth);
 * - verifications: better-auth's short-lived tokens, rewritten when a session is read.
 */
const VOLATILE_TABLES = new Set(['rate_limits', 'rate_limit_counters', 'sessions', 'verifications']);

/** 5xx answers that mean an outside service is missing or down, not a bug: route -> codes. */
const OUTSIDE_SERVICE_5XX: Record<string, string[]> = {
  // Card payments need Stripe keys; a test shop has none.
  'POST /api/checkout': ['NOT_CONFIGURED'],
};

/**
 * Routes whose refused attempts the spec has audited (a configuration update: success flag and
 * error text): a refusal of theirs may add to the audit log and must change nothing else.
 */
const AUDITED_REFUSALS = new Set(['PUT /api/admin/settings/:provider/:keyName']);

/** Runs per property (CI time: the file takes well under a minute per backend). */
const RUNS = Number(process.env.HARDENING_RUNS ?? 200);

const WEIRD_STRINGS = [
  '../../etc/passwd',
  '..%2f..%2fpackage.json',
  '%00',
  '\u0000',
  '💥🛍️',
  'Ω≈ç√∫',
  '99999999999999999999999999999',
  '-1',
  '1e309',
  'NaN',
  "' or 1=1 --",
  'a'.repeat(5000),
];

const pathValue = fc.oneof(
  fc.uuid(),
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(...WEIRD_STRINGS),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
);

const queryString = fc
  .dictionary(
    fc.oneof(
      fc.constantFrom('limit', 'page', 'cursor', 'search', 'status', 'topics', 'gender', 'sort'),
      fc.string(),
    ),
    fc.oneof(fc.string(), fc.constantFrom(...WEIRD_STRINGS), fc.integer().map(String)),
    { maxKeys: 4 },
  )
  .map((d) => new URLSearchParams(d).toString());

/** A JSON body: anything, or the route's sample with one field replaced, removed or added. */
function bodyFor(sample: unknown): fc.Arbitrary<unknown> {
  const anything = fc.jsonValue({ maxDepth: 3 });
  if (typeof sample !== 'object' || sample === null || Array.isArray(sample)) return anything;
  const keys = Object.keys(sample);
  const mutated =
    keys.length === 0
      ? fc.dictionary(fc.string(), anything, { maxKeys: 3 })
      : fc
          .record({ key: fc.constantFrom(...keys), value: anything, drop: fc.boolean() })
          .map(({ key, value, drop }) => {
            const copy: Record<string, unknown> = { ...(sample as Record<string, unknown>) };
            if (drop) delete copy[key];
            else copy[key] = value;
            return copy;
          });
  return fc.oneof({ arbitrary: mutated, weight: 3 }, { arbitrary: anything, weight: 1 });
}

describe.each(BACKENDS)('random input on every route (%s)', (backend) => {
  let t: TestApp;
  let fx: Fixtures;
  let routes: RouteEntry[];
  let checksumQuery: string;

  beforeAll(async () => {
    t = await startTestApp({ backend, env: { SIGN_IN_RATE_LIMIT: '1000', SIGN_UP_RATE_LIMIT: '1000' } });
    fx = await createFixtures(t);
    // Routes that end the caller's session would leave the rest of the run anonymous.
    routes = routeTable(t.app).filter((r) => !SAMPLES[r.key]?.endsSession);
    const { rows } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(
      t.deps.database.db,
    );
    const tables = rows.map((r) => r.name).filter((name) => !VOLATILE_TABLES.has(name));
    expect(tables).toEqual(expect.arrayContaining(['users', 'products', 'orders', 'payments', 'messages']));
    checksumQuery = `select ${tables
      .map(
        (name) =>
          `(select md5(coalesce(string_agg(x::text, ',' order by x::text), '')) from "${name}" x) as "${name}"`,
      )
      .join(', ')}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function checksums(): Promise<Record<string, string>> {
    const { rows } = await sql.raw<Record<string, string>>(checksumQuery).execute(t.deps.database.db);
    return rows[0]!;
  }

  async function send(route: RouteEntry, who: Role, url: string, body: unknown) {
    const client = clientFor(fx, who);
    const before = await checksums();
    const res = route.mutating
      ? await client.request(route.method, url, { json: body })
      : await client.get(url);
    const type = res.headers.get('content-type') ?? '';
    const text = type.includes('text/event-stream') ? (await res.body?.cancel(), '') : await res.text();
    const label = `${who} ${route.method} ${url.slice(0, 300)} -> ${res.status} ${text.slice(0, 300)}`;
    if (res.status >= 500) {
      const code = (JSON.parse(text) as Partial<ErrorBody>).error?.code ?? '';
      expect(OUTSIDE_SERVICE_5XX[route.key] ?? [], label).toContain(code);
      return;
    }
    if (res.status >= 400) {
      const after = await checksums();
      if (AUDITED_REFUSALS.has(route.key)) {
        delete after.admin_audit_log;
        delete before.admin_audit_log;
      }
      expect(after, `${label}: a refused request changed a table`).toEqual(before);
    }
  }

  const who = fc.constantFrom<Role>('anonymous', 'customer', 'admin');

  it('sees a change in any table through its checksum', async () => {
    const before = await checksums();
    const ticket = await fx.customer.post('/api/tickets', { subject: 'Checksum', content: 'One more row.' });
    expect(ticket.status).toBe(201);
    const after = await checksums();
    expect(Object.keys(after).filter((table) => after[table] !== before[table])).toEqual(['messages']);
  });

  it('never answers 500 to random bodies, and a refused one changes nothing', async () => {
    const writes = routes.filter((r) => r.mutating && r.path.startsWith('/api/'));
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...writes)
          .chain((route) => fc.tuple(fc.constant(route), who, bodyFor(SAMPLES[route.key]?.body?.(fx) ?? {}))),
        async ([route, role, body]) => send(route, role, fillPath(route.path, paramsFor(route, fx)), body),
      ),
      { numRuns: RUNS },
    );
  });

  it('never answers 500 to random bytes under any declared content type, and a refused one changes nothing', async () => {
    const writes = routes.filter((r) => r.mutating && r.path.startsWith('/api/'));
    const contentType = fc.oneof(
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-16',
        'application/vnd.api+json',
        'APPLICATION/JSON',
        'image/png',
        'image/svg+xml',
        'application/octet-stream',
        'text/html',
      ),
      fc.string({ maxLength: 40 }).filter((v) => /^[\x21-\x7e]*$/.test(v)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...writes),
        who,
        contentType,
        fc.oneof(
          fc.uint8Array({ maxLength: 2048 }),
          fc.string().map((v) => new TextEncoder().encode(v)),
        ),
        async (route, role, type, bytes) => {
          const client = clientFor(fx, role);
          const before = await checksums();
          const res = await client.request(route.method, fillPath(route.path, paramsFor(route, fx)), {
            headers: { 'content-type': type },
            body: new Uint8Array(bytes),
          });
          const text = await res.text();
          const label = `${role} ${route.key} as ${JSON.stringify(type)} -> ${res.status} ${text.slice(0, 300)}`;
          expect(res.status, label).toBeLessThan(500);
          if (res.status >= 400) expect(await checksums(), label).toEqual(before);
        },
      ),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it('never answers 500 to random path ids and query strings, and a refused request changes nothing', async () => {
    const withParams = routes.filter((r) => r.path.includes(':') || !r.mutating);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...withParams),
        who,
        fc.dictionary(fc.constantFrom('id', 'reference', 'signature', 'provider', 'keyName'), pathValue),
        queryString,
        async (route, role, params, query) => {
          const url = `${fillPath(route.path, { ...paramsFor(route, fx), ...params })}${query ? `?${query}` : ''}`;
          await send(route, role, url, SAMPLES[route.key]?.body?.(fx) ?? {});
        },
      ),
      { numRuns: RUNS },
    );
  });
});
