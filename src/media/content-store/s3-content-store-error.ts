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
 * A failure of the bucket as a client-facing error. The message names the operation, the
 * service's error code (`NoSuchBucket`, `AccessDenied`, `ECONNREFUSED`) and status, never the
 * endpoint, bucket or keys. The SDK's error is not kept as the cause: its message and fields can
 * carry the host and the access key id (`SignatureDoesNotMatch` echoes it), and causes reach logs.
 */
export function contentStoreError(error: unknown, operation: string): GatewayError {
  const { name, code } = shapeOf(error);
  const reason = typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : typeof name === 'string' && /^[A-Za-z]+$/.test(name) && name !== 'Error' ? name : undefined;
  const status = statusOf(error);
  const details = [reason, status === undefined ? undefined : `HTTP ${status}`].filter((detail) => detail !== undefined);
  return new GatewayError('content_store_unavailable', `The content store could not ${operation}${details.length === 0 ? '' : ` (${details.join(', ')})`}; try again later.`);
}
