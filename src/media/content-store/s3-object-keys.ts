import { assertContentKey } from './content-key.js';

const contentKeyPattern = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;

/**
 * Maps content keys to object keys under an optional prefix and back. Objects outside the prefix,
 * or whose names are not content keys, are not ours: listing skips them, so the sweeper never
 * removes what something else keeps in the same bucket.
 */
export class S3ObjectKeys {
  /** What every object key of ours starts with: `prefix/`, or nothing without a prefix. */
  readonly listPrefix: string;

  constructor(prefix: string | undefined) {
    const trimmed = prefix?.replace(/^\/+|\/+$/g, '') ?? '';
    this.listPrefix = trimmed === '' ? '' : `${trimmed}/`;
  }

  objectKeyFor(key: string): string {
    assertContentKey(key);
    return `${this.listPrefix}${key}`;
  }

  /** The content key of a listed object, or undefined when the object is not one of ours. */
  contentKeyOf(objectKey: string): string | undefined {
    if (!objectKey.startsWith(this.listPrefix)) return undefined;
    const key = objectKey.slice(this.listPrefix.length);
    return contentKeyPattern.test(key) && !key.split('/').some((segment) => segment.includes('..')) ? key : undefined;
  }
}
