import { describe, expect, it } from 'vitest';
import { parseConsentForm, safeReturnPath } from './consent-form';
import { consentCookie } from './hooks/use-stored-flag';

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

describe('the consent form post', () => {
  it('reads the answer of the button pressed and the page to return to', () => {
    expect(parseConsentForm(form({ 'aelo-disclaimer-accepted': 'true', returnTo: '/faq' }))).toEqual({
      answers: [{ key: 'aelo-disclaimer-accepted', value: true }],
      returnTo: '/faq',
    });
    expect(parseConsentForm(form({ 'aelo-cookie-consent': 'false', returnTo: '/?gender=mens' }))).toEqual({
      answers: [{ key: 'aelo-cookie-consent', value: false }],
      returnTo: '/?gender=mens',
    });
    expect(parseConsentForm(form({ 'aelo-cookie-consent': 'true' }))?.returnTo).toBe('/');
  });

  it('refuses anything else: no answer, a disclaimer "false", an unknown value', () => {
    expect(parseConsentForm(form({ returnTo: '/' }))).toBeNull();
    expect(parseConsentForm(form({ 'aelo-disclaimer-accepted': 'false' }))).toBeNull();
    expect(parseConsentForm(form({ 'aelo-cookie-consent': 'yes' }))).toBeNull();
    expect(parseConsentForm(form({ 'aelo-cookie-consent': 'true', returnTo: '/'.repeat(3000) }))).toBeNull();
  });

  it('returns only to a path of this site', () => {
    expect(safeReturnPath('/products/abc?x=1')).toBe('/products/abc?x=1');
    expect(safeReturnPath('/faq#top')).toBe('/faq');
    for (const outside of [
      undefined,
      '',
      'faq',
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '/\t/evil.example',
      '\n//evil.example',
      'javascript:alert(1)',
    ]) {
      expect(safeReturnPath(outside)).toBe('/');
    }
  });

  it('sets the cookie as the page writes it, Secure on https', () => {
    expect(consentCookie('aelo-cookie-consent', false, false)).toBe(
      'aelo-cookie-consent=false; Path=/; Max-Age=31536000; SameSite=Lax',
    );
    expect(consentCookie('aelo-disclaimer-accepted', true, true)).toBe(
      'aelo-disclaimer-accepted=true; Path=/; Max-Age=31536000; SameSite=Lax; Secure',
    );
  });
});
