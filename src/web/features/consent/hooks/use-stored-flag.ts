import { createContext, createElement, useContext, useSyncExternalStore, type ReactNode } from 'react';
import { afterHydration } from '#web/lib/after-hydration';

/**
 * The two browser flags of the spec (§3 "Local browser flags"): the cookie-consent choice (true =
 * Accept All, false = Decline) and the disclaimer acknowledgement (true). Each is kept in a
 * first-party cookie, so the server renders the page with the prompts a visitor still has to
 * answer (a first visit sees the disclaimer with the first paint, not after the app has loaded),
 * and in localStorage, where earlier visits kept them. The Privacy page lists them.
 */
export const CONSENT_STORAGE_KEYS = {
  cookieConsent: 'aelo-cookie-consent',
  disclaimerAccepted: 'aelo-disclaimer-accepted',
} as const;

export type ConsentStorageKey = (typeof CONSENT_STORAGE_KEYS)[keyof typeof CONSENT_STORAGE_KEYS];
export type ConsentFlags = Partial<Record<ConsentStorageKey, boolean>>;

const ONE_YEAR_S = 365 * 24 * 60 * 60;
const listeners = new Set<() => void>();
/** When storage is blocked (some private modes), choices still hold for this visit. */
const memory = new Map<string, boolean>();

function parse(raw: string | null | undefined): boolean | null {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  return null;
}

function cookieValue(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The flags a request's Cookie header carries (the server renderer's view). */
export function consentFlagsFromCookies(cookieHeader: string | null): ConsentFlags {
  const flags: ConsentFlags = {};
  for (const key of Object.values(CONSENT_STORAGE_KEYS)) {
    const value = parse(cookieValue(cookieHeader ?? '', key));
    if (value !== null) flags[key] = value;
  }
  return flags;
}

/** In the browser: the flag as its cookie holds it, which is what the server rendered from. */
export function readCookieFlag(key: ConsentStorageKey): boolean | null {
  return parse(cookieValue(document.cookie, key));
}

/**
 * A flag's cookie as document.cookie takes it and as the server's Set-Cookie sends it (the consent
 * route answers a form post before the code has arrived): a year, the whole site, Secure on https.
 */
export function consentCookie(key: ConsentStorageKey, value: boolean, secure: boolean): string {
  return `${key}=${String(value)}; Path=/; Max-Age=${ONE_YEAR_S}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

function writeCookieFlag(key: ConsentStorageKey, value: boolean): void {
  document.cookie = consentCookie(key, value, window.location.protocol === 'https:');
}

function readLocalFlag(key: ConsentStorageKey): boolean | null {
  try {
    return parse(window.localStorage.getItem(key));
  } catch {
    return null; // storage unavailable
  }
}

/** true / false as stored, or null when no choice was stored. */
export function readStoredFlag(key: ConsentStorageKey): boolean | null {
  return readCookieFlag(key) ?? readLocalFlag(key) ?? memory.get(key) ?? null;
}

export function writeStoredFlag(key: ConsentStorageKey, value: boolean): void {
  memory.set(key, value);
  writeCookieFlag(key, value);
  try {
    window.localStorage.setItem(key, String(value));
  } catch {
    // kept in the cookie and in memory
  }
  for (const listener of listeners) listener();
}

// A choice an earlier visit kept only in localStorage moves into the cookie once the page has
// hydrated (before, the page must match what the server rendered from the cookies it saw).
if (typeof window !== 'undefined') {
  afterHydration(() => {
    for (const key of Object.values(CONSENT_STORAGE_KEYS)) {
      const local = readLocalFlag(key);
      if (readCookieFlag(key) === null && local !== null) writeCookieFlag(key, local);
    }
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // A choice made in another tab applies here too.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** The flags of the request being rendered on the server; absent in the browser. */
const ServerFlags = createContext<ConsentFlags | null>(null);

export function ConsentFlagsProvider({ flags, children }: { flags: ConsentFlags; children: ReactNode }) {
  return createElement(ServerFlags.Provider, { value: flags }, children);
}

/**
 * The stored flag, re-rendering when it changes (in this tab or another). On the server and while
 * the server's HTML hydrates it is what the request's cookies say, so the prompts are in the HTML
 * for a visitor who has not answered them and never flash for one who has.
 */
export function useStoredFlag(key: ConsentStorageKey): boolean | null {
  const serverFlags = useContext(ServerFlags);
  return useSyncExternalStore(
    subscribe,
    () => readStoredFlag(key),
    () => (serverFlags ? (serverFlags[key] ?? null) : readCookieFlag(key)),
  );
}

/** The cookie choice: true (accepted), false (declined), null (not chosen yet). */
export function useCookieConsent(): boolean | null {
  return useStoredFlag(CONSENT_STORAGE_KEYS.cookieConsent);
}
