import type { Role } from '#common/schemas/auth';

/**
 * The types the auth service and its flows (credentials, email, two-factor, sessions) share, so
 * that the flows never import the service that composes them.
 */

/** What a route needs from the incoming request. */
export interface AuthRequestContext {
  headers: Headers;
  /** The client's IP as the server determined it (see auth.routes.ts), if known. */
  clientIp: string | undefined;
  /** The origin the request was made to (lib/client-ip.ts `requestOriginOf`), if known. */
  requestOrigin?: string | undefined;
}

/** A response body plus the Set-Cookie header values the route must send with it. */
export interface AuthResult<T> {
  body: T;
  setCookies: string[];
}

export interface CreateUserInput {
  email: string;
  password: string;
  name?: string;
  role?: Role;
}
