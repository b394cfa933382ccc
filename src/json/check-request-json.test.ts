import { describe, expect, it } from 'vitest';
import { checkRequestJson, maxRequestJsonDepth } from './check-request-json.js';

const nestedArrays = (levels: number) => `{"a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;

describe('checking a request body', () => {
  it('takes nesting up to the limit and refuses one level more', () => {
    expect(() => checkRequestJson(nestedArrays(maxRequestJsonDepth))).not.toThrow();
    expect(() => checkRequestJson(nestedArrays(maxRequestJsonDepth + 1))).toThrow(/levels deep/);
  });

  it('counts no brackets or quotes inside strings', () => {
    const brackets = `"${'['.repeat(500)}\\" , \\"model\\": \\\\"`;
    expect(() => checkRequestJson(`{"model":"a","text":${brackets},"other":"\\\\"}`)).not.toThrow();
  });

  it('refuses a top-level name given twice, as JSON.parse reads names', () => {
    expect(() => checkRequestJson('{"model":"a","stream":true,"model":"b"}')).toThrow(/'model' more than once/);
    expect(() => checkRequestJson('{"model":"a", "m\\u006fdel" :"b"}')).toThrow(/'model' more than once/);
    expect(() => checkRequestJson('{"model":"a","nested":{"model":"b","model":"c"},"list":["model","model"]}')).not.toThrow();
  });
});

describe('checking a request body given the member count JSON.parse made of it', () => {
  const bodies = [
    '{}',
    '{"model":"a","stream":true}',
    '{"model":"a","stream":true,"model":"b"}',
    '{"model":"a", "m\\u006fdel" :"b"}',
    '{"model":"a","nested":{"model":"b","model":"c"},"list":["model","model"]}',
    '{"__proto__":1,"__proto__":2}',
    '{"a":1,"b":{"a":2},"a":3,"b":4}',
    `{"model":"a","text":"${'['.repeat(300)}\\" , \\"model\\": \\\\","other":"\\\\"}`,
    nestedArrays(maxRequestJsonDepth),
    nestedArrays(maxRequestJsonDepth + 1),
    // Both refusals in one body: the one that comes first in the text is the one reported.
    `{"model":"a","model":"b","deep":${nestedArrays(maxRequestJsonDepth + 1)}}`,
    `{"deep":${nestedArrays(maxRequestJsonDepth + 1)},"model":"a","model":"b"}`,
  ];

  /** What the check says about `text`: nothing, or its refusal's code, message and param. */
  function verdict(run: () => void): unknown {
    try {
      run();
      return 'accepted';
    } catch (error) {
      const refusal = error as { code: string; message: string; param?: string };
      return { code: refusal.code, message: refusal.message, param: refusal.param };
    }
  }

  it.each(bodies)('gives the verdict the pass reading every name gives: %s', (text) => {
    const members = Object.keys(JSON.parse(text) as object).length;
    expect(verdict(() => checkRequestJson(text, members))).toEqual(verdict(() => checkRequestJson(text)));
  });
});
