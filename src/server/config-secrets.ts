import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** Secrets not given in the environment are generated once and kept in DATA_DIR/secrets.json. */
export function loadOrCreateSecrets(dataDir: string): { authSecret: string; encryptionKey: string } {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const parsed = z
      .object({ authSecret: z.string().min(32), encryptionKey: z.string().regex(/^[0-9a-f]{64}$/i) })
      .safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) return parsed.data;
  }
  const secrets = {
    authSecret: randomBytes(32).toString('base64url'),
    encryptionKey: randomBytes(32).toString('hex'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
