import type { z } from 'zod';
import { GatewayError } from '../../errors/gateway-error.js';

type Issue = z.core.$ZodIssue;
type PathKey = PropertyKey;

/**
 * Validates `value` with `schema`; on failure throws a GatewayError whose `param` names the field
 * the way OpenAI does (`input[3].call_id`), relative to `basePath`. (Formats may not import each
 * other, so this mirrors the chat format's helper.)
 */
export function parseOrThrow<Schema extends z.ZodType>(schema: Schema, value: unknown, basePath: readonly PathKey[] = []): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  if (first === undefined) throw new GatewayError('invalid_request', 'The request body is invalid.');
  const { issue, path } = mostSpecific(first, []);
  const param = formatParam([...basePath, ...path]);
  if (valueAt(value, path) === undefined) {
    throw new GatewayError('missing_field', `Missing required parameter: '${param}'.`, { param });
  }
  const detail = issue.message.replace(/^Invalid input: /, '');
  throw new GatewayError('invalid_field', `Invalid value for '${param}': ${detail}.`, { param });
}

/** In a union failure the option whose issue lies deepest is the one the client meant. */
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
