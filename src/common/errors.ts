/** One error model for browser and server: codes, their HTTP status, and the response shape. */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  BAD_JSON: 400,
  UNAUTHENTICATED: 401,
  /** Sign-in needs, besides the password, the one-time code mailed to the account. */
  SIGN_IN_CODE_REQUIRED: 401,
  FORBIDDEN: 403,
  CSRF_REJECTED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  OUT_OF_STOCK: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  PAYMENT_NOT_FOUND: 404,
  NOT_CONFIGURED: 503,
  UNAVAILABLE: 503,
  /** The shop's own database cannot be reached (restarting, network cut): try again shortly. */
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const SERVICE_UNAVAILABLE_MESSAGE = 'The shop is briefly unavailable. Please try again in a moment.';

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    /** Field path (dot-joined) -> first message for that field. */
    fields?: Record<string, string>;
  };
}

export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const err: unknown = value.error;
  return typeof err === 'object' && err !== null && 'code' in err && 'message' in err;
}
