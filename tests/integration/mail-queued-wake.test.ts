import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OutgoingMail } from '#server/modules/mail/mail.service';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';

const mail = (key: string): OutgoingMail => ({
  eventKey: `wake-test:${key}`,
  to: 'someone@example.com',
  subject: 'Hello',
  text: 'Hello',
  html: null,
});

/**
 * The mail sender wakes when queued mail is committed (a NOTIFY sent in the queuing transaction),
 * not when it is written: woken earlier, it would look before the commit, find nothing and leave
 * the mail to its next timed pass.
 */
describe.each(BACKENDS)('the mail sender woken by queued mail (%s)', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ backend });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is told once the queuing transaction commits, and never for one rolled back', async () => {
    const woken = vi.fn();
    const off = t.deps.mail.onQueued(woken);
    try {
      await t.deps.database.db.transaction().execute(async (trx) => {
        expect(await t.deps.mail.enqueue(mail('committed'), trx)).toBe(true);
        expect(woken).not.toHaveBeenCalled();
      });
      await expect.poll(() => woken.mock.calls.length).toBe(1);

      await expect(
        t.deps.database.db.transaction().execute(async (trx) => {
          await t.deps.mail.enqueue(mail('rolled-back'), trx);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      // Notifications arrive in commit order: the next one's arrival shows the rolled-back one never came.
      await t.deps.mail.enqueue(mail('after'));
      await expect.poll(() => woken.mock.calls.length).toBe(2);
      // A mail already queued for its event is not queued again, and wakes nobody.
      expect(await t.deps.mail.enqueue(mail('after'))).toBe(false);
      await t.deps.mail.enqueue(mail('last'));
      await expect.poll(() => woken.mock.calls.length).toBe(3);
    } finally {
      off();
    }
  });
});
