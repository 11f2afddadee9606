/**
 * Mail templates are files an owner edits (MAIL_TEMPLATES_DIR, issue 41): the shipped folder has
 * every kind's subject, text and HTML; a missing or broken file stops the start with a message
 * naming it (never a failure when a mail is sent); an edited copy is what the shop sends.
 */
import { cpSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config';
import { createDeps } from '#server/deps';
import { createLogger } from '#server/lib/logger';
import { passwordResetMail } from '#server/modules/mail/mail-templates';
import {
  DEFAULT_MAIL_TEMPLATES_DIR,
  installMailTemplates,
  loadMailTemplates,
  MAIL_KINDS,
} from '#server/modules/mail/template-files';
import { startTestApp } from '../helpers/test-app';

const dirs: string[] = [];
function copyOfTemplates(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mail-templates-'));
  dirs.push(dir);
  cpSync(DEFAULT_MAIL_TEMPLATES_DIR, dir, { recursive: true });
  return dir;
}

/** Starts the server's dependencies as main.ts does, with these templates. */
function start(templatesDir: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mail-templates-data-'));
  dirs.push(dataDir);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    MAIL_TEMPLATES_DIR: templatesDir,
  });
  return createDeps(config, createLogger('silent'));
}

describe('mail templates', () => {
  afterAll(() => {
    installMailTemplates(DEFAULT_MAIL_TEMPLATES_DIR);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('ships a subject, a text and an HTML file for every kind of mail', () => {
    const templates = loadMailTemplates(DEFAULT_MAIL_TEMPLATES_DIR);
    expect(Object.keys(templates.kinds).sort()).toEqual([...MAIL_KINDS].sort());
  });

  it('does not start when a template file is missing, and names it', async () => {
    const dir = copyOfTemplates();
    const file = path.join(dir, 'order-refunded', 'text.txt');
    unlinkSync(file);
    await expect(start(dir)).rejects.toThrow(`Mail template ${file}: missing`);
  });

  it('does not start when a template is broken, and names it', async () => {
    const dir = copyOfTemplates();
    const file = path.join(dir, 'support-reply', 'body.html');
    writeFileSync(file, '<p>Hello {{#name}}{{name}}</p>\n');
    await expect(start(dir)).rejects.toThrow(`Mail template ${file}: is not a valid template`);
    const layout = path.join(dir, 'layout.html');
    writeFileSync(layout, '<html><body>{{subject}}</body></html>\n');
    await expect(start(dir)).rejects.toThrow(`Mail template ${layout}: has no {{{body}}}`);
  });

  it('sends what an edited copy says', async () => {
    const dir = copyOfTemplates();
    writeFileSync(path.join(dir, 'password-reset', 'subject.txt'), 'A new password for {{brand}}Aelo\n');
    writeFileSync(
      path.join(dir, 'password-reset', 'text.txt'),
      'Pick a new password here: {{url}}\n\nThe Aelo team\n',
    );
    writeFileSync(
      path.join(dir, 'password-reset', 'body.html'),
      '<p><a href="{{url}}">New password</a></p>\n',
    );
    const t = await startTestApp({ backend: 'pglite', env: { MAIL_TEMPLATES_DIR: dir } });
    try {
      const mail = passwordResetMail('owner@example.com', 'a<b', 'https://shop.example');
      expect(mail.subject).toBe('A new password for Aelo');
      expect(mail.text).toBe(
        'A new password for Aelo\n\nPick a new password here: https://shop.example/reset-password?token=a%3Cb\n\nThe Aelo team\n\n— Aelo',
      );
      expect(mail.html).toContain('<h1 style="font-size:22px;margin:0 0 16px">A new password for Aelo</h1>');
      expect(mail.html).toContain(
        '<p><a href="https://shop.example/reset-password?token=a%3Cb">New password</a></p>',
      );
    } finally {
      await t.close();
    }
  });
});
