/**
 * Imports that break the layering of STYLE.md ("Which way imports go"). Each is linted as if it were
 * a file at `file` (a path that does not exist, in a folder that does); lint-boundaries.test.ts
 * expects ESLint to flag every one with `rule`, so the boundaries cannot rot unnoticed.
 */
export interface BoundaryFixture {
  name: string;
  file: string;
  code: string;
  rule: 'import-x/no-restricted-paths' | 'no-restricted-imports' | 'no-restricted-properties';
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
];
