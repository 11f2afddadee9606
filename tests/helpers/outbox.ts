import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { until } from './until';

/**
 * The newest link matching `pattern` in a mail to `email` in a server's outbox (DATA_DIR/outbox,
 * one .eml per mail: quoted-printable decoded, `&amp;` of the HTML part undone); waits up to 15 s
 * for the mail sender to write it.
 */
export async function outboxLink(dataDir: string, email: string, pattern: RegExp): Promise<string> {
  const dir = path.join(dataDir, 'outbox');
  return until(
    `a mail to ${email} matching ${pattern}`,
    async () => {
      for (const file of existsSync(dir) ? readdirSync(dir).sort().reverse() : []) {
        const text = readFileSync(path.join(dir, file), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        const match = pattern.exec(text);
        if (text.includes(`To: ${email}`) && match) return match[0].replace(/&amp;/g, '&');
      }
      return undefined;
    },
    15_000,
    200,
  );
}
