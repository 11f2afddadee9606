import { useSyncExternalStore } from 'react';

const subscribeNothing = () => () => undefined;
const inBrowser = () => true;
const onServer = () => false;

/**
 * Formats a timestamp (ISO text or epoch milliseconds) for the reader ('en-US'): in their own
 * time zone in the browser, in UTC on the server and while React hydrates the server's HTML (which
 * must read the same on both sides: the server does not know the reader's zone), then in their
 * zone right after.
 */
export function useDateFormatter(): (when: string | number, options: Intl.DateTimeFormatOptions) => string {
  const local = useSyncExternalStore(subscribeNothing, inBrowser, onServer);
  return (when, options) =>
    new Date(when).toLocaleString('en-US', local ? options : { ...options, timeZone: 'UTC' });
}
