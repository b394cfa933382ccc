import { NoSuchKey, S3ServiceException } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { contentStoreError, isMissingObject, isUnsatisfiableRange } from './s3-content-store-error.js';

/** A service error as the SDK builds it from an S3 error body, with the body's extra fields. */
function serviceError(name: string, status: number, fields: Record<string, string> = {}): S3ServiceException {
  return Object.assign(new S3ServiceException({ name, $fault: 'client', $metadata: { httpStatusCode: status }, message: `${name} from the service` }), fields);
}

describe('S3 content store errors', () => {
  it('names the service error code and status, but neither the access key id nor the signed request it echoes', () => {
    const refused = serviceError('SignatureDoesNotMatch', 403, {
      AWSAccessKeyId: 'AKIAEXAMPLEKEYID',
      StringToSign: 'AWS4-HMAC-SHA256\n20261126T000000Z\nus-east-1/s3/aws4_request',
      CanonicalRequest: 'GET\n/private-bucket/key\nhost:minio.internal:9000',
    });
    const error = contentStoreError(refused, 'read content');
    expect(error).toMatchObject({ code: 'content_store_unavailable', status: 503, retryable: true });
    expect(error.message).toBe('The content store could not read content (SignatureDoesNotMatch, HTTP 403); try again later.');
    expect(error.cause).toBeUndefined();
    expect(JSON.stringify({ ...error, message: error.message })).not.toMatch(/AKIA|minio|private-bucket/);
  });

  it('names a network failure by its code, not by its message, which carries the host', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:9000'), { code: 'ECONNREFUSED', $metadata: {} });
    expect(contentStoreError(refused, 'store content').message).toBe('The content store could not store content (ECONNREFUSED); try again later.');
    expect(contentStoreError(new Error('socket hang up at minio.internal'), 'list content').message).toBe('The content store could not list content; try again later.');
    expect(contentStoreError('not even an error', 'list content').message).toBe('The content store could not list content; try again later.');
  });

  it('tells a missing object from a missing bucket, and an unsatisfiable range from both', () => {
    expect(isMissingObject(new NoSuchKey({ $metadata: { httpStatusCode: 404 }, message: 'gone' }))).toBe(true);
    expect(isMissingObject(serviceError('NotFound', 404))).toBe(true);
    expect(isMissingObject(serviceError('NoSuchBucket', 404))).toBe(false);
    expect(isMissingObject(serviceError('AccessDenied', 403))).toBe(false);
    expect(isUnsatisfiableRange(serviceError('InvalidRange', 416))).toBe(true);
    expect(isUnsatisfiableRange(serviceError('NoSuchKey', 404))).toBe(false);
  });
});
