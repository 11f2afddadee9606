import { useEffect, useReducer } from 'react';
import {
  CONSENT_STORAGE_KEYS,
  type ConsentFlags,
  type ConsentStorageKey,
  readCookieFlag,
  useCookieConsent,
  useStoredFlag,
} from '../hooks/use-stored-flag';

/**
 * A prompt's code, loaded once; `loaded()` has it at once when it is in. The prompts never suspend:
 * one the server rendered was loaded before hydration, any other shows once its code is in.
 */
function prompt<T>(load: () => Promise<T>) {
  let module: T | undefined;
  let loading: Promise<T> | undefined;
  const preload = () =>
    (loading ??= load().then((loadedModule) => {
      module = loadedModule;
      return loadedModule;
    }));
  return { preload, loaded: () => module };
}

// Both prompts in one module, one chunk (vite.config.ts): a first visit shows both.
const prompts = prompt(() => import('./first-visit-prompts'));

function useLoaded<T>(code: { preload: () => Promise<T>; loaded: () => T | undefined }): T | undefined {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const module = code.loaded();
  useEffect(() => {
    if (!module) void code.preload().then(rerender, () => undefined);
  }, [code, module]);
  return module;
}

function CookieNotice() {
  const Notice = useLoaded(prompts)?.CookieNotice;
  return Notice ? <Notice /> : null;
}

function DisclaimerModal() {
  const Modal = useLoaded(prompts)?.DisclaimerModal;
  return Modal ? <Modal /> : null;
}

/**
 * Before the page renders on the server (with the request's flags) and before it hydrates (with
 * the cookies the server saw): the code of the prompts the visitor still has to answer, so they are
 * in the HTML and answer a click or Escape from the moment the page hydrates.
 */
export function preloadConsentPrompts(flags?: ConsentFlags): Promise<unknown> {
  const flag = (key: ConsentStorageKey) => (flags ? (flags[key] ?? null) : readCookieFlag(key));
  const unanswered =
    flag(CONSENT_STORAGE_KEYS.cookieConsent) === null ||
    flag(CONSENT_STORAGE_KEYS.disclaimerAccepted) !== true;
  return unanswered ? prompts.preload() : Promise.resolve();
}

/**
 * The cookie notice and the disclaimer, each loaded only for a visitor who has not answered it yet
 * (most page views carry neither): their code stays out of the first load of everyone else.
 */
export function ConsentPrompts() {
  const cookieConsent = useCookieConsent();
  const disclaimer = useStoredFlag(CONSENT_STORAGE_KEYS.disclaimerAccepted);
  return (
    <>
      {cookieConsent === null ? <CookieNotice /> : null}
      {disclaimer === null || disclaimer === false ? <DisclaimerModal /> : null}
    </>
  );
}
