/**
 * The Stripe stand-in (tests/fakes/stripe-server.ts) as a process of its own for the load benches:
 * Stripe is an outside party, so the time it takes to answer must not include the bench's own
 * clients (hundreds of simulated shoppers in the bench process, whose event loop is busy with
 * them). `startStripeProcess()` starts this file with `--child`; the child prints its URL on one
 * line of stdout and takes `webhook <url>` lines on stdin.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startFakeStripe } from '../../tests/fakes/stripe-server';

export interface StripeProcess {
  url: string;
  /** The stand-in's process id (the benches read its CPU time). */
  pid: number;
  secretKey: string;
  webhookSecret: string;
  setWebhook(url: string): void;
  close(): Promise<void>;
}

export async function startStripeProcess(): Promise<StripeProcess> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child'], {
    env: { ...process.env, FAKE_STRIPE_SECRET_KEY: secretKey, FAKE_STRIPE_WEBHOOK_SECRET: webhookSecret },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve(line.trim()));
    child.once('exit', (code) => reject(new Error(`the Stripe stand-in exited (${code})`)));
  });
  return {
    url,
    pid: child.pid!,
    secretKey,
    webhookSecret,
    setWebhook(target) {
      child.stdin.write(`webhook ${target}\n`);
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

async function runChild(): Promise<void> {
  const fake = await startFakeStripe({
    secretKey: process.env.FAKE_STRIPE_SECRET_KEY,
    webhookSecret: process.env.FAKE_STRIPE_WEBHOOK_SECRET,
  });
  createInterface({ input: process.stdin }).on('line', (line) => {
    const [command, target] = line.trim().split(' ');
    if (command === 'webhook' && target) fake.setWebhook(target);
  });
  process.once('SIGTERM', () => {
    void fake.close().finally(() => process.exit(0));
  });
  process.stdout.write(`${fake.url}\n`);
}

if (process.argv[2] === '--child') {
  runChild().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
