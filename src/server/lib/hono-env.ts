import type { SessionUser } from '#common/schemas/auth';

/** Per-request values set by middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The client's address (lib/client-ip.ts); undefined without a socket (app.request in tests). */
    clientIp: string | undefined;
    /**
     * Who counts as one client for limits, holds and throttles (lib/client-ip.ts `clientKeyOf`):
     * an IPv4 address as it is, an IPv6 address by its /64. Undefined without a socket.
     */
    clientKey: string | undefined;
    /** The client's network, the wider bound beside each per-client limit: an IPv6 /56 (`clientNetworkKeyOf`). */
    clientNetworkKey: string | undefined;
    /**
     * The origin this request was made to, as the browser saw it (lib/client-ip.ts
     * `requestOriginOf`): its Host, or a trusted proxy's X-Forwarded-Host and -Proto.
     */
    requestOrigin: string | undefined;
    /** Memoised session lookup: see lib/auth-guards.ts. */
    getSessionUser: () => Promise<SessionUser | null>;
    /** Set by requireUser / requireAdmin. */
    user: SessionUser;
    /** The CSP nonce of this response (secureHeaders), for scripts a server-rendered page streams. */
    secureHeadersNonce?: string;
  };
}
