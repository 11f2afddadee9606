/**
 * Code that breaks the layering of STYLE.md ("Which way imports go", "only repositories write
 * SQL", the web's one fetch). Each is linted as if it were a file at `file` (a path that does not
 * exist, in a folder that does, or a real file whose exception is under test); lint-boundaries.test.ts
 * expects ESLint to flag every one with `rule`, so the boundaries cannot rot unnoticed.
 */
export interface BoundaryFixture {
  name: string;
  file: string;
  code: string;
  rule:
    | 'import-x/no-restricted-paths'
    | 'no-restricted-imports'
    | '@typescript-eslint/no-restricted-imports'
    | 'no-restricted-properties'
    | 'no-restricted-syntax'
    | 'no-restricted-globals';
}

export const FORBIDDEN_IMPORTS: BoundaryFixture[] = [
  {
    name: 'a web feature imports another feature',
    file: 'src/web/features/catalog/components/lint-fixture.ts',
    code: "import { useCartStore } from '../../checkout/stores/cart-store';\nexport const x = useCartStore;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: 'a web feature imports another feature through an import alias',
    file: 'src/web/features/catalog/components/lint-fixture.ts',
    code: "import { useCartStore } from '#web/features/checkout/stores/cart-store';\nexport const x = useCartStore;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: "a service imports another module's repository through an import alias",
    file: 'src/server/modules/orders/lint-fixture.service.ts',
    code: "import * as repo from '#server/modules/catalog/catalog.repository';\nexport const x = repo;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: 'an admin feature imports another admin feature',
    file: 'src/web/features/admin/orders/components/lint-fixture.ts',
    code: "import * as products from '../../products/api/products-keys';\nexport const x = products;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: 'a web feature imports the app layer',
    file: 'src/web/features/catalog/components/lint-fixture.ts',
    code: "import * as app from '../../../app/route-data';\nexport const x = app;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: 'a ui primitive imports a feature',
    file: 'src/web/components/ui/lint-fixture.ts',
    code: "import * as cart from '../../features/checkout/stores/cart-store';\nexport const x = cart;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: 'web/lib imports a feature',
    file: 'src/web/lib/lint-fixture.ts',
    code: "import * as cart from '../features/checkout/stores/cart-store';\nexport const x = cart;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: 'web imports server code',
    file: 'src/web/lib/lint-fixture.ts',
    code: "import type { Config } from '../../server/config';\nexport type X = Config;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: 'server imports web code',
    file: 'src/server/lib/lint-fixture.ts',
    code: "import * as paths from '../../web/config/paths';\nexport const x = paths;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: 'common imports server code',
    file: 'src/common/lint-fixture.ts',
    code: "import type { Config } from '../server/config';\nexport type X = Config;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: "a service imports another module's repository",
    file: 'src/server/modules/checkout/lint-fixture.service.ts',
    code: "import { createPaymentsRepository } from '../payments/payments.repository';\nexport const x = createPaymentsRepository;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: 'a repository imports a service',
    file: 'src/server/modules/payments/lint-fixture.repository.ts',
    code: "import * as service from './payments.service';\nexport const x = service;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: 'a service imports a route',
    file: 'src/server/modules/payments/lint-fixture.service.ts',
    code: "import * as routes from './payments.routes';\nexport const x = routes;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: 'server/lib imports a module',
    file: 'src/server/lib/lint-fixture.ts',
    code: "import * as audit from '../modules/audit/audit.service';\nexport const x = audit;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: 'a service imports hono',
    file: 'src/server/modules/catalog/lint-fixture.service.ts',
    code: "import { HTTPException } from 'hono/http-exception';\nexport const x = HTTPException;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'a repository imports hono',
    file: 'src/server/modules/catalog/lint-fixture.repository.ts',
    code: "import type { Context } from 'hono';\nexport type X = Context;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'common imports stripe',
    file: 'src/common/lint-fixture.ts',
    code: "import Stripe from 'stripe';\nexport const x = Stripe;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'common imports sharp',
    file: 'src/common/lint-fixture.ts',
    code: "import sharp from 'sharp';\nexport const x = sharp;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'common imports fs',
    file: 'src/common/lint-fixture.ts',
    code: "import { readFileSync } from 'fs';\nexport const x = readFileSync;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'common imports node:crypto',
    file: 'src/common/lint-fixture.ts',
    code: "import { randomBytes } from 'node:crypto';\nexport const x = randomBytes;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'common imports react',
    file: 'src/common/lint-fixture.ts',
    code: "import { useState } from 'react';\nexport const x = useState;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'process.env read outside config.ts',
    file: 'src/server/lib/lint-fixture.ts',
    code: 'export const port = process.env.PORT;\n',
    rule: 'no-restricted-properties',
  },
  {
    name: 'process.env read in web code (its fetch rules keep this one)',
    file: 'src/web/features/catalog/components/lint-fixture.ts',
    code: 'export const mode = process.env.NODE_ENV;\n',
    rule: 'no-restricted-properties',
  },
  // Routes, jobs and the seed call services, never a repository.
  {
    name: "a route imports its own module's repository",
    file: 'src/server/modules/catalog/lint-fixture.routes.ts',
    code: "import { createCatalogRepository } from './catalog.repository';\nexport const x = createCatalogRepository;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: "a route imports another module's repository through an import alias",
    file: 'src/server/modules/orders/lint-fixture.routes.ts',
    code: "import * as repo from '#server/modules/payments/payments.repository';\nexport const x = repo;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: 'a job imports a repository',
    file: 'src/server/jobs/lint-fixture.ts',
    code: "import { createPaymentsRepository } from '../modules/payments/payments.repository';\nexport const x = createPaymentsRepository;\n",
    rule: 'import-x/no-restricted-paths',
  },
  {
    name: 'the seed imports a repository',
    file: 'src/server/seed/lint-fixture.ts',
    code: "import { createCatalogRepository } from '../modules/catalog/catalog.repository';\nexport const x = createCatalogRepository;\n",
    rule: 'import-x/no-restricted-paths',
  },
  // Only repositories (and src/server/db) write SQL.
  {
    name: 'a service imports sql from kysely',
    file: 'src/server/modules/catalog/lint-fixture.service.ts',
    code: "import { sql } from 'kysely';\nexport const x = sql;\n",
    rule: '@typescript-eslint/no-restricted-imports',
  },
  {
    name: 'a service imports a kysely value beside a type',
    file: 'src/server/modules/catalog/lint-fixture.service.ts',
    code: "import { type Kysely, sql } from 'kysely';\nexport const x = sql;\nexport type X = Kysely<object>;\n",
    rule: '@typescript-eslint/no-restricted-imports',
  },
  {
    name: 'a route imports sql from kysely',
    file: 'src/server/modules/catalog/lint-fixture.routes.ts',
    code: "import { sql } from 'kysely';\nexport const x = sql;\n",
    rule: '@typescript-eslint/no-restricted-imports',
  },
  {
    name: 'a job imports a kysely helper',
    file: 'src/server/jobs/lint-fixture.ts',
    code: "import { jsonArrayFrom } from 'kysely/helpers/postgres';\nexport const x = jsonArrayFrom;\n",
    rule: '@typescript-eslint/no-restricted-imports',
  },
  {
    name: 'a service calls db.selectFrom',
    file: 'src/server/modules/catalog/lint-fixture.service.ts',
    code: "import type { Db } from '#server/db/client';\nexport const f = (db: Db) => db.selectFrom('products').selectAll().execute();\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a service calls insertInto on a transaction',
    file: 'src/server/modules/orders/lint-fixture.service.ts',
    code: "import type { Db } from '#server/db/client';\nexport const f = (db: Db) =>\n  db.transaction().execute((trx) => trx.insertInto('audit_log').values({} as never).execute());\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a service calls deps.db.updateTable',
    file: 'src/server/modules/orders/lint-fixture.service.ts',
    code: "import type { Db } from '#server/db/client';\nexport const f = (deps: { db: Db }) => deps.db.updateTable('orders').set({} as never).execute();\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a service calls db.deleteFrom',
    file: 'src/server/modules/catalog/lint-fixture.service.ts',
    code: "import type { Db } from '#server/db/client';\nexport const f = (db: Db) => db.deleteFrom('products').execute();\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a service starts a query with db.with',
    file: 'src/server/modules/catalog/lint-fixture.service.ts',
    code: "import type { Db } from '#server/db/client';\nexport const f = (db: Db) => db.with('p', (q) => q.selectFrom('products').selectAll());\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a service calls db.selectNoFrom',
    file: 'src/server/modules/health/lint-fixture.service.ts',
    code: "import type { Db } from '#server/db/client';\nexport const f = (db: Db) => db.selectNoFrom((eb) => eb.val(1).as('one')).execute();\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a service helper runs a sql template (sql from anywhere)',
    file: 'src/server/modules/payments/lint-fixture.ts',
    code: "import type { Db } from '#server/db/client';\ndeclare const sql: (s: TemplateStringsArray) => { execute(db: Db): Promise<unknown> };\nexport const f = (db: Db) => sql`select 1`.execute(db);\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a route calls db.selectFrom',
    file: 'src/server/modules/catalog/lint-fixture.routes.ts',
    code: "import type { Db } from '#server/db/client';\nexport const f = (db: Db) => db.selectFrom('products').selectAll().execute();\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a job calls database.db.updateTable',
    file: 'src/server/jobs/lint-fixture.ts',
    code: "import type { Database } from '#server/db/client';\nexport const f = (database: Database) =>\n  database.db.updateTable('orders').set({} as never).execute();\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'the seed calls db.insertInto',
    file: 'src/server/seed/lint-fixture.ts',
    code: "import type { Db } from '#server/db/client';\nexport const f = (db: Db) => db.insertInto('products').values({} as never).execute();\n",
    rule: 'no-restricted-syntax',
  },
  // The web app calls the API through apiClient, its only fetch.
  {
    name: 'a web feature calls fetch instead of the API client',
    file: 'src/web/features/catalog/api/lint-fixture.ts',
    code: "export const f = () => fetch('/api/products').then((r) => r.json() as Promise<unknown>);\n",
    rule: 'no-restricted-globals',
  },
  {
    name: 'a web lib hook calls fetch',
    file: 'src/web/lib/lint-fixture.ts',
    code: "export const f = (signal: AbortSignal) => fetch('/api/token-purchases/x', { signal });\n",
    rule: 'no-restricted-globals',
  },
  {
    name: 'a route module calls window.fetch',
    file: 'src/web/app/routes/lint-fixture.ts',
    code: "export const f = () => window.fetch('/api/products');\n",
    rule: 'no-restricted-properties',
  },
  {
    name: 'a web hook takes an option named fetch (a local fetch hides the global from lint)',
    file: 'src/web/lib/lint-fixture.ts',
    code: 'export const f = (o: { fetch: () => Promise<unknown> }) => {\n  const { fetch } = o;\n  return fetch();\n};\n',
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a web feature declares a function named fetch',
    file: 'src/web/features/catalog/api/lint-fixture.ts',
    code: "export const g = (fetch: (u: string) => Promise<unknown>) => fetch('/api/products');\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a web feature calls globalThis.fetch',
    file: 'src/web/features/catalog/api/lint-fixture.ts',
    code: "export const f = () => globalThis.fetch('/api/products');\n",
    rule: 'no-restricted-properties',
  },
];

/** Imports the layering allows: the same linter must pass them (the rules are not simply "deny all"). */
export const ALLOWED_IMPORTS: Array<Omit<BoundaryFixture, 'rule'>> = [
  {
    name: 'common imports zod and itself',
    file: 'src/common/lint-fixture.ts',
    code: "import { z } from 'zod';\nimport { changeTone } from './format';\nexport const x = [z, changeTone];\n",
  },
  {
    name: "a service calls another module's service",
    file: 'src/server/modules/checkout/lint-fixture.service.ts',
    code: "import { newPaymentReference } from '../payments/payments.service';\nexport const x = newPaymentReference;\n",
  },
  {
    name: "a service uses its own module's repository",
    file: 'src/server/modules/payments/lint-fixture.service.ts',
    code: "import { createPaymentsRepository } from './payments.repository';\nexport const x = createPaymentsRepository;\n",
  },
  {
    name: 'an admin feature uses admin/shared',
    file: 'src/web/features/admin/orders/components/lint-fixture.ts',
    code: "import * as shared from '../../shared/components/panel';\nexport const x = shared;\n",
  },
  {
    name: 'a route calls its service',
    file: 'src/server/modules/catalog/lint-fixture.routes.ts',
    code: "import { createCatalogService } from './catalog.service';\nexport const x = createCatalogService;\n",
  },
  {
    name: 'a job calls a service',
    file: 'src/server/jobs/lint-fixture.ts',
    code: "import { newPaymentReference } from '../modules/payments/payments.service';\nexport const x = newPaymentReference;\n",
  },
  {
    name: 'the seed calls a service',
    file: 'src/server/seed/lint-fixture.ts',
    code: "import { prepareImage } from '../modules/storage/storage.service';\nexport const x = prepareImage;\n",
  },
  {
    name: 'a repository writes SQL with sql and the query builder',
    file: 'src/server/modules/catalog/lint-fixture.repository.ts',
    code: "import { sql } from 'kysely';\nimport type { Db } from '#server/db/client';\nexport const f = (db: Db) =>\n  db.selectFrom('products').select(sql<number>`count(*)`.as('n')).executeTakeFirst();\n",
  },
  {
    name: 'src/server/db uses kysely values and queries',
    file: 'src/server/db/lint-fixture.ts',
    code: "import { sql } from 'kysely';\nimport type { Db } from './client';\nexport const f = (db: Db) => sql`select 1`.execute(db);\nexport const g = (db: Db) => db.selectNoFrom((eb) => eb.val(1).as('one')).execute();\n",
  },
  {
    name: 'a service imports kysely types',
    file: 'src/server/modules/payments/lint-fixture.service.ts',
    code: "import type { Updateable } from 'kysely';\nimport { type Transaction } from 'kysely';\nexport type X = [Updateable<object>, Transaction<object>];\n",
  },
  {
    name: 'a service opens a transaction and passes it to a repository',
    file: 'src/server/modules/catalog/lint-fixture.service.ts',
    code: "import type { Db } from '#server/db/client';\nimport { createCatalogRepository } from './catalog.repository';\nexport const f = (db: Db) => db.transaction().execute((trx) => createCatalogRepository(trx).countProducts());\n",
  },
  {
    name: "a service uses an array's with (not a query)",
    file: 'src/server/modules/catalog/lint-fixture.service.ts',
    code: 'export const f = (sizes: string[]) => sizes.with(0, "XS");\n',
  },
  {
    name: 'the API client calls fetch',
    file: 'src/web/lib/api-client.ts',
    code: 'export const f = (url: string, init: RequestInit) => fetch(url, init);\n',
  },
  {
    name: 'a web feature calls the API client',
    file: 'src/web/features/catalog/api/lint-fixture.ts',
    code: "import { apiClient } from '#web/lib/api-client';\nexport const f = (signal: AbortSignal) => apiClient.get('/api/products', { signal });\n",
  },
];
