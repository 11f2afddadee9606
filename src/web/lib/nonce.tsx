import { createContext, useContext } from 'react';

/**
 * The CSP nonce of the response (entry.server.tsx provides it from the server's per-response
 * nonce): the root layout gives it to React Router's scripts. In the browser there is none to give
 * (a nonce only matters in the HTML the server sent).
 */
const NonceContext = createContext<string | undefined>(undefined);

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
