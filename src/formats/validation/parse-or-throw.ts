import type { z } from 'zod';
import { GatewayError } from '../../errors/gateway-error.js';

type Issue = z.core.$ZodIssue;
export type PathKey = PropertyKey;

/**
 * How one client format names a field and words a validation failure in its own errors; each
 * format's clients (and its tests) expect exactly its own spelling.
 */
export interface ParamNotation {
  formatParam(path: readonly PathKey[]): string;
  missingMessage(param: string): string;
  invalidMessage(param: string, detail: string): string;
}

/**
 * Validates `value` with `schema`; on failure throws a GatewayError whose `param` names the field
 * relative to `basePath`.
 */
export type ParseOrThrow = <Schema extends z.ZodType>(schema: Schema, value: unknown, basePath?: readonly PathKey[]) => z.output<Schema>;

/** A `parseOrThrow` that reports failures in `notation`. */
export function createParseOrThrow(notation: ParamNotation): ParseOrThrow {
  return (schema, value, basePath = []) => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const first = result.error.issues[0];
    if (first === undefined) throw new GatewayError('invalid_request', 'The request body is invalid.');
    const { issue, path } = mostSpecific(first, []);
    const param = notation.formatParam([...basePath, ...path]);
    if (valueAt(value, path) === undefined) {
      throw new GatewayError('missing_field', notation.missingMessage(param), { param });
    }
    const detail = issue.message.replace(/^Invalid input: /, '');
    throw new GatewayError('invalid_field', notation.invalidMessage(param, detail), { param });
  };
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

function valueAt(value: unknown, path: readonly PathKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
