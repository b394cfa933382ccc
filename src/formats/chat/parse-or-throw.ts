import type { z } from 'zod';
import { GatewayError } from '../../errors/gateway-error.js';

type Issue = z.core.$ZodIssue;
type PathKey = PropertyKey;

/**
 * Validates `value` with `schema`; on failure throws a GatewayError whose `param` names the field
 * in chat's own notation (`messages[2].content[0].image_url.url`), relative to `basePath`.
 */
export function parseOrThrow<Schema extends z.ZodType>(schema: Schema, value: unknown, basePath: readonly PathKey[] = []): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  if (first === undefined) throw new GatewayError('invalid_request', 'The request body is invalid.');
  const { issue, path } = mostSpecific(first, []);
  const fullPath = [...basePath, ...path];
  const param = formatParam(fullPath);
  if (valueAt(value, path) === undefined) {
    return throwError(new GatewayError('missing_field', `Missing required parameter: '${param}'.`, { param }));
  }
  const detail = issue.message.replace(/^Invalid input: /, '');
  return throwError(new GatewayError('invalid_field', `Invalid value for '${param}': ${detail}.`, { param }));
}

function throwError(error: GatewayError): never {
  throw error;
}

/**
 * A union failure hides where the input went wrong; the option whose issue lies deepest is the
 * one the client meant (an array of parts with a bad part, not "not a string").
 */
function mostSpecific(issue: Issue, prefix: readonly PathKey[]): { issue: Issue; path: PathKey[] } {
  const here = [...prefix, ...issue.path];
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return { issue, path: here };
  let best: { issue: Issue; path: PathKey[] } | undefined;
  for (const optionIssues of issue.errors) {
    const candidate = optionIssues[0];
    if (candidate === undefined || candidate.path.length === 0) continue;
    const resolved = mostSpecific(candidate, here);
    if (best === undefined || resolved.path.length > best.path.length) best = resolved;
  }
  return best ?? { issue, path: here };
}

export function formatParam(path: readonly PathKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

function valueAt(value: unknown, path: readonly PathKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
