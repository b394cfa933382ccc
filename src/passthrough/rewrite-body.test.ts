import { describe, expect, it } from 'vitest';
import { findTopLevelValue, matchTrailingTopLevelValue, insertTopLevelMember, replaceTopLevelString } from './rewrite-body.js';

describe('rewriting a passed-through body as text', () => {
  it('replaces only the top-level model and keeps every other byte', () => {
    const body = '{"messages":[{"role":"user","content":"{\\"model\\":\\"x\\"}","model":"inner"}],  "model" : "public-id","x_unknown":{"a":1}}';
    const rewritten = replaceTopLevelString(body, 'model', 'upstream/id');
    expect(rewritten).toBe(body.replace('"public-id"', '"upstream/id"'));
    expect(JSON.parse(rewritten as string).messages[0].model).toBe('inner');
  });

  it('escapes the new value as JSON', () => {
    expect(replaceTopLevelString('{"model":"a"}', 'model', 'we"ird')).toBe('{"model":"we\\"ird"}');
  });

  it('gives up when the value is not a string or the key is absent', () => {
    expect(replaceTopLevelString('{"model":5}', 'model', 'x')).toBeUndefined();
    expect(replaceTopLevelString('{"messages":[]}', 'model', 'x')).toBeUndefined();
  });

  it('finds object values at the top level', () => {
    const body = '{"a":{"stream_options":1},"stream_options":{"include_usage":false},"z":1}';
    const range = findTopLevelValue(body, 'stream_options');
    expect(body.slice(range?.start, range?.end)).toBe('{"include_usage":false}');
  });

  it('inserts a member first, into empty and non-empty objects', () => {
    expect(insertTopLevelMember('{"a":1}', 'b', 'true')).toBe('{"b":true,"a":1}');
    expect(insertTopLevelMember(' { } ', 'b', '2')).toBe(' {"b":2 } ');
  });

  it('proves a trailing member top-level from the end of the text alone, and leaves a nested last mention to the full scan', () => {
    const valueOf = (body: string): string | undefined => {
      const range = matchTrailingTopLevelValue(body, 'usage');
      return range === undefined ? undefined : body.slice(range.start, range.end);
    };
    expect(valueOf('{"id":"x","usage":{"total":3}}\n')).toBe('{"total":3}');
    expect(valueOf('{"text":"a \\"usage\\":{\\"total\\":9}","usage":{"total":4},"z":[1,{"k":"}"}]}')).toBe('{"total":4}');
    expect(valueOf('{"choices":[{"usage":{"total":9}}]}')).toBeUndefined();
    expect(valueOf('{"usage":{"total":1},"choices":[{"usage":{"total":9}}]}')).toBeUndefined();
    expect(valueOf('…"content":"x"}}],"usage":{"total":5},"service_tier":"default"}')).toBe('{"total":5}');
  });
});
