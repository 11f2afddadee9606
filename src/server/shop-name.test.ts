import { describe, expect, it } from 'vitest';
import { DEFAULT_SHOP_NAME } from '#common/shop';
import { ConfigSchema } from './config';
import { solanaPayLabel } from './lib/solana-pay-routes';
import {
  DEFAULT_MAIL_TEMPLATES_DIR,
  loadMailTemplates,
  renderMailTemplates,
} from './modules/mail/template-files';
import { signInStatement } from './modules/wallet/wallet.service';

/** SHOP_NAME: one setting names the shop wherever the server says its name. */
const configOf = (env: Record<string, string>) =>
  ConfigSchema.parse({ DATA_DIR: '/tmp/shop-name-test', ...env });

describe('the shop name (SHOP_NAME)', () => {
  it('is the shipped brand unless set, and the From of mail follows it unless MAIL_FROM is set', () => {
    expect(configOf({}).shopName).toBe(DEFAULT_SHOP_NAME);
    expect(configOf({}).mail.from).toBe(`${DEFAULT_SHOP_NAME} <no-reply@aelo.local>`);
    expect(configOf({ SHOP_NAME: ' North Track ' }).mail.from).toBe('North Track <no-reply@aelo.local>');
    expect(configOf({ SHOP_NAME: 'North Track', MAIL_FROM: 'Shop <s@example.com>' }).mail.from).toBe(
      'Shop <s@example.com>',
    );
    expect(() => configOf({ SHOP_NAME: '  ' })).toThrow();
    expect(() => configOf({ MAIL_FROM: 'ab' })).toThrow();
  });

  it('is in every mail, its layout included, escaped in HTML', () => {
    const templates = loadMailTemplates(DEFAULT_MAIL_TEMPLATES_DIR, 'North & Track');
    const mail = renderMailTemplates(templates, 'password-reset', {
      url: 'https://shop.example/reset-password?token=t',
    });
    expect(mail.text).toContain('the password of your North & Track account');
    expect(mail.text).toMatch(/— North & Track$/);
    expect(mail.html).toContain('North &#38; Track');
    expect(mail.html).not.toContain('Aelo');
  });

  it('labels Solana Pay requests and wallet sign-in', () => {
    expect(solanaPayLabel('North Track', 'https://shop.example')).toEqual({
      label: 'North Track',
      icon: 'https://shop.example/favicon.svg',
    });
    expect(signInStatement('North Track')).toBe(
      'Link this wallet to your North Track account to see your holder rewards.',
    );
  });
});
