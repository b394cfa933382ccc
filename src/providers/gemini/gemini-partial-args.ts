import { isRecord } from '../../json/json-value.js';
import type { GeminiPartialArg } from './wire/generate-content-response.js';

/** Builds a function call's args object from streamed `partialArgs` fragments. */
export interface ArgsAccumulator {
  apply(fragments: readonly GeminiPartialArg[]): void;
  value(): Record<string, unknown>;
}

type PathSegment = string | number;

/**
 * Streamed arguments (Vertex `streamFunctionCallArguments`) address each leaf by a JSON path
 * (`$.location`, `$.items[0].name`); a long string arrives as several `stringValue` fragments at
 * the same path (the earlier ones with `willContinue`), so a string landing on a string is appended.
 */
export function createArgsAccumulator(initial?: unknown): ArgsAccumulator {
  const root: Record<string, unknown> = {};
  if (isRecord(initial)) for (const [key, value] of Object.entries(initial)) defineOwn(root, key, value);

  return {
    apply(fragments) {
      for (const fragment of fragments) {
        const segments = parseJsonPath(fragment.jsonPath);
        if (segments.length === 0) continue;
        const existing = getAt(root, segments);
        if (fragment.stringValue != null) {
          setAt(root, segments, typeof existing === 'string' ? existing + fragment.stringValue : fragment.stringValue);
        } else if (fragment.numberValue != null) {
          setAt(root, segments, fragment.numberValue);
        } else if (fragment.boolValue != null) {
          setAt(root, segments, fragment.boolValue);
        } else if ('nullValue' in fragment) {
          setAt(root, segments, null);
        }
      }
    },
    value: () => root,
  };
}

/** `$.a.b[0]['c d']` → ['a', 'b', 0, 'c d']. */
export function parseJsonPath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  const pattern = /\.([^.[\]]+)|\[(\d+)\]|\[['"]((?:[^'"\\]|\\.)*)['"]\]/g;
  for (const match of path.replace(/^\$/, '').matchAll(pattern)) {
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else if (match[3] !== undefined) segments.push(match[3]);
  }
  return segments;
}

function getAt(root: Record<string, unknown>, segments: readonly PathSegment[]): unknown {
  let current: unknown = root;
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<PathSegment, unknown>)[segment];
  }
  return current;
}

function setAt(root: Record<string, unknown>, segments: readonly PathSegment[], value: unknown): void {
  let current: Record<PathSegment, unknown> = root;
  for (let position = 0; position < segments.length - 1; position += 1) {
    const segment = segments[position] as PathSegment;
    const next = Object.prototype.hasOwnProperty.call(current, segment) ? current[segment] : undefined;
    if (typeof next === 'object' && next !== null) {
      current = next as Record<PathSegment, unknown>;
    } else {
      const container = (typeof segments[position + 1] === 'number' ? [] : {}) as Record<PathSegment, unknown>;
      defineOwn(current, segment, container);
      current = container;
    }
  }
  defineOwn(current, segments[segments.length - 1] as PathSegment, value);
}

/** Own data properties only, so a `__proto__` key in model output cannot reach a prototype setter. */
function defineOwn(target: Record<PathSegment, unknown>, key: PathSegment, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
}
