import { describe, expect, it } from 'vitest';
import { AbortScope } from './abort-scope.js';

describe('an abort scope', () => {
  it('runs its listeners once, and a late listener at once', () => {
    const scope = new AbortScope();
    let runs = 0;
    scope.onAbort(() => runs++);
    scope.abort();
    scope.abort();
    expect(runs).toBe(1);
    scope.onAbort(() => runs++);
    expect(runs).toBe(2);
  });

  it('does not run a listener that was unregistered', () => {
    const scope = new AbortScope();
    let runs = 0;
    const stop = scope.onAbort(() => runs++);
    stop();
    scope.abort();
    expect(runs).toBe(0);
  });

  it('aborts a child with its parent, but not the parent with a child', () => {
    const parent = new AbortScope();
    const first = parent.child();
    first.abort();
    expect(parent.aborted).toBe(false);
    const second = parent.child();
    parent.abort();
    expect(second.aborted).toBe(true);
  });
});
