import { readFileSync } from 'node:fs';
import path from 'node:path';
import Mustache from 'mustache';
import { projectRoot } from '#server/lib/paths';
import { DEFAULT_SHOP_NAME } from '#common/shop';

/**
 * The shop's mails as plain files an owner can edit (MAIL_TEMPLATES_DIR, by default mail-templates/
 * at the package root): per mail kind a folder with `subject.txt`, `text.txt` and `body.html`, and
 * two shared layouts, `layout.txt` and `layout.html`, that wrap every body. Mustache (logic-less):
 * `{{name}}` is a value, `{{#x}}...{{/x}}` shows a part when x is set (or repeats it for a list),
 * `{{^x}}...{{/x}}` when it is not. In HTML every `{{value}}` is escaped; the text parts and the
 * subject are sent as they are (they are not HTML). `{{shopName}}` (SHOP_NAME) is set in every one.
 *
 * Every file is read and parsed once, at start-up: a missing or broken one stops the server with
 * a message naming the file, never a failure when a mail is sent.
 */

export const MAIL_KINDS = [
  'verify-email',
  'sign-up-attempt',
  'password-reset',
  'sign-in-code',
  'email-change',
  'email-changed',
  'order-confirmed',
  'order-refund',
  'payment-refund',
  'order-shipped',
  'order-status',
  'order-refunded',
  'support-reply',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

const PARTS = ['subject.txt', 'text.txt', 'body.html'] as const;
const LAYOUTS = ['layout.txt', 'layout.html'] as const;

export const DEFAULT_MAIL_TEMPLATES_DIR = path.join(projectRoot, 'mail-templates');

interface KindTemplates {
  subject: string;
  text: string;
  html: string;
}

export interface MailTemplates {
  dir: string;
  /** `{{shopName}}` in every template and layout (SHOP_NAME). */
  shopName: string;
  layout: { text: string; html: string };
  kinds: Record<MailKind, KindTemplates>;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The view a template sees: values, flags and lists (of such views). */
export type MailView = Record<string, unknown>;

export class MailTemplateError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`Mail template ${file}: ${reason}`);
    this.name = 'MailTemplateError';
  }
}

function readTemplate(dir: string, relative: string): string {
  const file = path.join(dir, relative);
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new MailTemplateError(file, code === 'ENOENT' ? 'missing' : `cannot be read (${code ?? 'error'})`);
  }
  if (source.trim() === '') throw new MailTemplateError(file, 'is empty');
  try {
    Mustache.parse(source);
  } catch (err) {
    throw new MailTemplateError(file, `is not a valid template (${(err as Error).message})`);
  }
  return source;
}

/** Reads and checks every template under `dir`; throws a MailTemplateError naming the first bad file. */
export function loadMailTemplates(dir: string, shopName: string = DEFAULT_SHOP_NAME): MailTemplates {
  const [text, html] = LAYOUTS.map((name) => readTemplate(dir, name)) as [string, string];
  if (!html.includes('{{{body}}}'))
    throw new MailTemplateError(path.join(dir, 'layout.html'), 'has no {{{body}}}');
  if (!text.includes('{{{body}}}'))
    throw new MailTemplateError(path.join(dir, 'layout.txt'), 'has no {{{body}}}');
  const kinds = {} as Record<MailKind, KindTemplates>;
  for (const kind of MAIL_KINDS) {
    const [subject, body, htmlBody] = PARTS.map((part) => readTemplate(dir, path.join(kind, part))) as [
      string,
      string,
      string,
    ];
    kinds[kind] = { subject, text: body, html: htmlBody };
  }
  return { dir, shopName, layout: { text, html }, kinds };
}

/** The escaping of every `{{value}}` in HTML: the five characters that matter in text and quoted attributes. */
function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
const asIs = (value: unknown) => String(value);

/** Renders one kind's subject, text (in layout.txt) and HTML (in layout.html). */
export function renderMailTemplates(templates: MailTemplates, kind: MailKind, view: MailView): RenderedMail {
  const t = templates.kinds[kind];
  const shopName = templates.shopName;
  view = { shopName, ...view };
  const subject = Mustache.render(t.subject, view, {}, { escape: asIs }).replace(/\s+/g, ' ').trim();
  const text = Mustache.render(t.text, view, {}, { escape: asIs }).replace(/\s+$/, '');
  const html = Mustache.render(t.html, view, {}, { escape: escapeHtml }).trim();
  return {
    subject,
    text: Mustache.render(
      templates.layout.text,
      { shopName, subject, body: text },
      {},
      { escape: asIs },
    ).replace(/\s+$/, ''),
    html: Mustache.render(
      templates.layout.html,
      { shopName, subject, body: html },
      {},
      { escape: escapeHtml },
    ).trim(),
  };
}

// The templates in use: loaded at start-up (createMailService, from MAIL_TEMPLATES_DIR), or the
// shipped ones on first use (a test that builds a mail without starting the app).
let active: MailTemplates | undefined;

/** Loads `dir` (throwing a MailTemplateError naming a bad file) and uses it for every mail from now on. */
export function installMailTemplates(dir: string, shopName: string = DEFAULT_SHOP_NAME): MailTemplates {
  active = active?.dir === dir && active.shopName === shopName ? active : loadMailTemplates(dir, shopName);
  return active;
}

export function renderMail(kind: MailKind, view: MailView): RenderedMail {
  active ??= loadMailTemplates(DEFAULT_MAIL_TEMPLATES_DIR);
  return renderMailTemplates(active, kind, view);
}
