import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp, TestClient } from '../helpers/test-app';
import { signUpAndIn } from '../helpers/sign-up';

/** Signed-in clients for the admin tests: an admin and a customer of their own. */
export interface AdminClients {
  anonymous: TestClient;
  customer: TestClient;
  customerId: string;
  admin: TestClient;
  adminId: string;
  adminEmail: string;
}

export async function signInClients(t: TestApp): Promise<AdminClients> {
  const tag = randomBytes(4).toString('hex');
  const customerEmail = `customer-${tag}@example.com`;
  const customer = t.client();
  const signUp = await signUpAndIn(customer, {
    email: customerEmail,
    password: 'customer-pass-1',
  });
  expect(signUp.status).toBe(200);
  const customerId = ((await signUp.json()) as { user: { id: string } }).user.id;

  const adminEmail = `admin-${tag}@example.com`;
  const created = await t.deps.auth.createUser({
    email: adminEmail,
    password: 'admin-pass-1234',
    role: 'admin',
  });
  const admin = t.client();
  const signIn = await admin.post('/api/auth/sign-in/email', {
    email: adminEmail,
    password: 'admin-pass-1234',
  });
  expect(signIn.status).toBe(200);
  return { anonymous: t.client(), customer, customerId, admin, adminId: created.id, adminEmail };
}

export interface ErrorJson {
  error: { code: string; message: string; fields?: Record<string, string> };
}

export async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text.slice(0, 500)).toBe(status);
  return JSON.parse(text) as T;
}

/**
 * How long a live event, and what it changes, is given to arrive (through NOTIFY on PostgreSQL):
 * the options of expect.poll or vi.waitFor.
 */
export const LIVE_WAIT = { timeout: 3_000, interval: 20 };
