import type { SessionUser } from '#common/schemas/auth';

/** Per-request values set by middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The client's address (lib/client-ip.ts); undefined without a socket (app.request in tests). */
    clientIp: string | undefined;
    /** Memoised session lookup: see lib/auth-guards.ts. */
    getSessionUser: () => Promise<SessionUser | null>;
    /** Set by requireUser / requireAdmin. */
    user: SessionUser;
    /** The CSP nonce of this response (secureHeaders), for scripts a server-rendered page streams. */
    secureHeadersNonce?: string;
  };
}
