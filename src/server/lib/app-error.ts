import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '#common/errors';

/** Thrown by services; `app.onError` turns it into `{ error: { code, message, fields? } }`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, fields?: Record<string, string>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.fields = fields;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorBody {
    return {
      error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) },
    };
  }
}

export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please try again later.';

/** 429 with the seconds to wait; `app.onError` (and the auth routes) send them as Retry-After. */
export class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, message: string = RATE_LIMITED_MESSAGE) {
    super('RATE_LIMITED', message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/** 503 UNAVAILABLE for a while (an instance full): `app.onError` sends the seconds as Retry-After. */
export class BusyError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, message: string) {
    super('UNAVAILABLE', message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/** What a 503 SERVICE_UNAVAILABLE (the database out of reach) asks its caller to wait, as Retry-After. */
export const SERVICE_RETRY_AFTER_SECONDS = 5;
