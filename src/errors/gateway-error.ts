import { errorRegistry, type ErrorCode } from './registry.js';

export interface GatewayErrorOptions {
  /** The request field at fault, in the client's own naming. */
  readonly param?: string;
  /** Overrides the registry status (upstream errors keep the upstream's status class). */
  readonly status?: number;
  /** Seconds a client should wait before retrying (sent as `retry-after`). */
  readonly retryAfterSeconds?: number;
  /** For upstream errors: the upstream's own error type (e.g. `overloaded_error`), kept for clients of the same family. */
  readonly upstreamType?: string;
  /** For errors made from an upstream's HTTP answer: the status it answered with. */
  readonly upstreamStatus?: number;
  readonly cause?: unknown;
}

/** The one error type the gateway raises; every format renders it in its own shape. */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly param: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly upstreamType: string | undefined;
  readonly upstreamStatus: number | undefined;

  constructor(code: ErrorCode, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.code = code;
    this.status = options.status ?? errorRegistry[code].status;
    this.retryable = errorRegistry[code].retryable;
    this.param = options.param;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.upstreamType = options.upstreamType;
    this.upstreamStatus = options.upstreamStatus;
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}

/** The same error with another message (and, when given, another cause): status, code and hints are kept. */
export function withMessage(error: GatewayError, message: string, cause: unknown = error.cause): GatewayError {
  return new GatewayError(error.code, message, {
    status: error.status,
    ...(error.param === undefined ? {} : { param: error.param }),
    ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
    ...(error.upstreamType === undefined ? {} : { upstreamType: error.upstreamType }),
    ...(error.upstreamStatus === undefined ? {} : { upstreamStatus: error.upstreamStatus }),
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Wraps anything thrown into a GatewayError without leaking internals into the message. */
export function toGatewayError(value: unknown): GatewayError {
  if (value instanceof GatewayError) return value;
  return new GatewayError('internal_error', 'The gateway failed to process the request.', { cause: value });
}

/**
 * Maps an upstream HTTP status to the error the client sees, keeping the status class:
 * upstream 4xx stay client errors, 429 stays 429, 5xx become 502/503/504.
 */
export function upstreamStatusError(status: number, message: string, given: GatewayErrorOptions = {}): GatewayError {
  const options: GatewayErrorOptions = { ...given, upstreamStatus: status };
  if (status === 429) return new GatewayError('upstream_rate_limited', message, { ...options, status: 429 });
  if (status === 408 || status === 504) return new GatewayError('upstream_timeout', message, { ...options, status: 504 });
  if (status === 503 || status === 529) return new GatewayError('upstream_unavailable', message, { ...options, status: 503 });
  if (status >= 500) return new GatewayError('upstream_error', message, { ...options, status: 502 });
  if (status === 401 || status === 403) {
    // The gateway's own upstream credential was refused: the client cannot fix that.
    return new GatewayError('upstream_error', message, { ...options, status: 502 });
  }
  return new GatewayError('upstream_client_error', message, { ...options, status: status >= 400 ? status : 502 });
}
