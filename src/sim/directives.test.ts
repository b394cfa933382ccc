import { describe, expect, it } from 'vitest';
import { applyHeaderControls, parseDirectives, stripDirectives } from './directives.js';

describe('parseDirectives', () => {
  it('reads every directive from one message', () => {
    const directives = parseDirectives('go [tool:Bash] [think] [error:503] [delay:10] [pace:5] [length] [words:7] [cache:64]');
    expect(directives).toEqual({
      tool: { name: 'Bash', count: 1 },
      think: true,
      length: true,
      words: 7,
      errorStatus: 503,
      delayMs: 10,
      paceMs: 5,
      cacheWriteTokens: 64,
    });
  });

  it('treats [tool] as the first tool and [tools:N] as N calls', () => {
    expect(parseDirectives('[tool]').tool).toEqual({ name: undefined, count: 1 });
    expect(parseDirectives('[tools:3]').tool).toEqual({ name: undefined, count: 3 });
    expect(parseDirectives('[tools:999]').tool?.count).toBe(16);
  });

  it('ignores statuses that are not errors and malformed numbers', () => {
    expect(parseDirectives('[error:200]').errorStatus).toBeNull();
    expect(parseDirectives('[delay:soon] [words:-1]')).toMatchObject({ delayMs: 0, words: null });
  });

  it('gives nothing for plain text', () => {
    expect(parseDirectives('just [a] bracket')).toMatchObject({ tool: null, think: false, errorStatus: null });
  });
});

describe('stripDirectives', () => {
  it('removes directives and tidies whitespace', () => {
    expect(stripDirectives('hello [delay:5]  world [think]')).toBe('hello world');
  });
});

describe('applyHeaderControls', () => {
  it('lets headers win over directives', () => {
    const headers: Record<string, string> = { 'x-sim-delay-ms': '40', 'x-sim-pace-ms': '3', 'x-sim-error-status': '429' };
    const controlled = applyHeaderControls(parseDirectives('[delay:1] [pace:2] [error:500]'), (name) => headers[name]);
    expect(controlled).toMatchObject({ delayMs: 40, paceMs: 3, errorStatus: 429 });
  });

  it('keeps directives when headers are absent or invalid', () => {
    const controlled = applyHeaderControls(parseDirectives('[delay:1] [error:500]'), (name) =>
      name === 'x-sim-error-status' ? 'abc' : undefined,
    );
    expect(controlled).toMatchObject({ delayMs: 1, errorStatus: 500 });
  });
});
