import { GatewayError } from '../../errors/gateway-error.js';

/** The fields of an AWS SDK error we read; anything else thrown has none of them. */
interface ServiceErrorShape {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly $metadata?: { readonly httpStatusCode?: unknown };
}

function shapeOf(error: unknown): ServiceErrorShape {
  return typeof error === 'object' && error !== null ? (error as ServiceErrorShape) : {};
}

function statusOf(error: unknown): number | undefined {
  const status = shapeOf(error).$metadata?.httpStatusCode;
  return typeof status === 'number' ? status : undefined;
}

/** The object is not there (a GET answers `NoSuchKey`, a HEAD only a bare 404). */
export function isMissingObject(error: unknown): boolean {
  const name = shapeOf(error).name;
  return name === 'NoSuchKey' || name === 'NotFound' || (statusOf(error) === 404 && name !== 'NoSuchBucket');
}

/** The byte range asked for lies outside the object (HTTP 416). */
export function isUnsatisfiableRange(error: unknown): boolean {
  return shapeOf(error).name === 'InvalidRange' || statusOf(error) === 416;
}

/**
 * A failure of the bucket as a client-facing error. The message names the operation and the
 * service's error code (`NoSuchBucket`, `AccessDenied`, `ECONNREFUSED`) but never the endpoint,
 * bucket or credentials, which SDK messages can carry; the original stays as the cause for logs.
 */
export function contentStoreError(error: unknown, operation: string): GatewayError {
  const { name, code } = shapeOf(error);
  const reason = typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : typeof name === 'string' && /^[A-Za-z]+$/.test(name) && name !== 'Error' ? name : undefined;
  const status = statusOf(error);
  const detail = reason === undefined ? (status === undefined ? '' : ` (HTTP ${status})`) : ` (${reason})`;
  return new GatewayError('content_store_unavailable', `The content store could not ${operation}${detail}; try again later.`, { cause: error });
}
