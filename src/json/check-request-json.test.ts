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
