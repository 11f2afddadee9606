import { isErrorBody, type ErrorCode } from '#common/errors';

/**
 * The only place the web app calls `fetch`. JSON in, JSON out, cookies of this origin only.
 * Error bodies `{ error: { code, message, fields } }` become a typed `ApiError`.
 */
export type ApiErrorCode = ErrorCode | 'NETWORK_ERROR';

export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ApiErrorCode;
  /** HTTP status; 0 when the request never got an answer. */
  readonly status: number;
  /** Field path -> first message for that field (validation errors). */
  readonly fields: Readonly<Record<string, string>>;
  /**
   * Whether `message` is the server's own (from its error body). False when the request got no
   * answer, or an answer without an error body: the message is then only this client's wording.
   */
  readonly hasServerMessage: boolean;

  constructor(
    code: ApiErrorCode,
    message: string,
    status: number,
    fields: Record<string, string> = {},
    hasServerMessage = true,
  ) {
    super(message);
    this.code = code;
    this.status = status;
    this.fields = fields;
    this.hasServerMessage = hasServerMessage && message.trim() !== '';
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /**
   * A plain value is sent as JSON; a Blob or File is sent raw with its own type (image uploads).
   * Every write declares a content type, bodiless ones `application/json`: the server refuses a
   * write without one, or with a type a cross-site form could send (CSRF).
   */
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 205) return undefined;
  const text = await res.text();
  if (text === '') return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function fallbackCode(status: number): ErrorCode {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 400 && status < 500) return 'VALIDATION_FAILED';
  if (status === 503) return 'UNAVAILABLE';
  return 'INTERNAL';
}

/** How a request reaches the API: `fetch` in the browser, the app itself in process on the server. */
export type ApiTransport = (url: string, init: RequestInit) => Promise<Response>;

let transport: ApiTransport = (url, init) => fetch(url, init);

/** On the server (app/entry.server.tsx) the pages' queries are answered in process, with the visitor's cookies. */
export function setApiTransport(next: ApiTransport): void {
  transport = next;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, query, signal, headers: extraHeaders } = options;
  const headers = new Headers({ accept: 'application/json', ...extraHeaders });
  let payload: BodyInit | undefined;
  // fetch sends a Blob with its own type as the content type; JSON.stringify(undefined) is no body.
  if (body instanceof Blob) {
    payload = body;
  } else if (body !== undefined || method !== 'GET') {
    headers.set('content-type', 'application/json');
    payload = JSON.stringify(body);
  }

  let res: Response;
  try {
    res = await transport(buildUrl(path, query), {
      method,
      headers,
      body: payload,
      signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(
      'NETWORK_ERROR',
      'Could not reach the shop. Check your connection and try again.',
      0,
      {},
      false,
    );
  }

  const data = await readBody(res);
  if (!res.ok) {
    if (isErrorBody(data)) {
      throw new ApiError(data.error.code, data.error.message, res.status, data.error.fields ?? {});
    }
    throw new ApiError(fallbackCode(res.status), `Request failed (${res.status})`, res.status, {}, false);
  }
  return data as T;
}

export const apiClient = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

/**
 * The message to show for any error a query or mutation can throw: the server's own message when
 * it sent one; otherwise `fallback` when given (the spec's "… or 'Failed to …'" texts), else this
 * client's wording (no connection, HTTP status) or a generic sentence.
 */
export function errorMessage(error: unknown, fallback?: string): string {
  if (error instanceof ApiError && error.hasServerMessage) return error.message;
  if (fallback !== undefined) return fallback;
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}
