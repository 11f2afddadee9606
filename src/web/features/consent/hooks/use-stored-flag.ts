import { useSyncExternalStore } from 'react';

/**
 * The two browser flags of the spec (§3 "Local browser flags"), kept in localStorage so they
 * survive reloads: the cookie-consent choice (true = Accept All, false = Decline) and the
 * disclaimer acknowledgement (true). The Privacy page lists them.
 */
export const CONSENT_STORAGE_KEYS = {
  cookieConsent: 'aelo-cookie-consent',
  disclaimerAccepted: 'aelo-disclaimer-accepted',
} as const;

export type ConsentStorageKey = (typeof CONSENT_STORAGE_KEYS)[keyof typeof CONSENT_STORAGE_KEYS];

const listeners = new Set<() => void>();
/** When storage is blocked (some private modes), choices still hold for this visit. */
const memory = new Map<string, boolean>();

function parse(raw: string | null): boolean | null {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  return null;
}

/** true / false as stored, or null when no choice was stored. */
export function readStoredFlag(key: ConsentStorageKey): boolean | null {
  try {
    const stored = parse(window.localStorage.getItem(key));
    if (stored !== null) return stored;
  } catch {
    // storage unavailable: fall back to this visit's memory
  }
  return memory.get(key) ?? null;
}

export function writeStoredFlag(key: ConsentStorageKey, value: boolean): void {
  memory.set(key, value);
  try {
    window.localStorage.setItem(key, String(value));
  } catch {
    // kept in memory only
  }
  for (const listener of listeners) listener();
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

/**
 * The stored flag, re-rendering when it changes (in this tab or another); undefined while not
 * known: on the server and while the server's HTML hydrates, so nothing shows that a returning
 * visitor already answered.
 */
export function useStoredFlag(key: ConsentStorageKey): boolean | null | undefined {
  return useSyncExternalStore(
    subscribe,
    () => readStoredFlag(key),
    () => undefined,
  );
}

/** The cookie choice: true (accepted), false (declined), null (not chosen yet), undefined (not known yet). */
export function useCookieConsent(): boolean | null | undefined {
  return useStoredFlag(CONSENT_STORAGE_KEYS.cookieConsent);
}
