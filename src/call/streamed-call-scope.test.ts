import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AbortScope } from './abort-scope.js';
import { ClientScope } from './client-scope.js';
import { StreamedCallScope } from './streamed-call-scope.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the scope of a streamed upstream call', () => {
  it('stops the upstream call at once when the client leaves before the stream is committed', () => {
    const client = new ClientScope();
    const scope = new StreamedCallScope(client, 2_000);
    client.abort();
    expect(scope.upstream.aborted).toBe(true);
  });

  it('keeps the upstream call for the wait after the client left a committed stream, then stops it', () => {
    const client = new ClientScope();
    const scope = new StreamedCallScope(client, 2_000);
    scope.commit();
    client.abort();
    expect(scope.clientHasLeft).toBe(true);
    vi.advanceTimersByTime(1_999);
    expect(scope.upstream.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(scope.upstream.aborted).toBe(true);
  });

  it('stops a committed stream at once on a shutdown, with its reason', () => {
    const client = new ClientScope();
    const scope = new StreamedCallScope(client, 2_000);
    scope.commit();
    const reason = new Error('shutting down');
    client.abort(reason);
    expect(scope.upstream.aborted).toBe(true);
    expect(scope.upstream.reason).toBe(reason);
  });

  it('stops at once when nothing sent is still to be billed from what comes next', () => {
    const client = new ClientScope();
    const scope = new StreamedCallScope(client, 2_000, () => false);
    scope.commit();
    client.abort();
    expect(scope.upstream.aborted).toBe(true);
  });

  it('cuts the wait for usage short when the gateway shuts down after the client left', () => {
    const shutdown = new AbortScope();
    const client = new ClientScope(shutdown);
    const scope = new StreamedCallScope(client, 2_000);
    scope.commit();
    client.abort();
    expect(scope.upstream.aborted).toBe(false);
    shutdown.abort();
    expect(scope.upstream.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not wait for usage at all when the client leaves during a shutdown', () => {
    const shutdown = new AbortScope();
    shutdown.abort();
    const client = new ClientScope(shutdown);
    const scope = new StreamedCallScope(client, 2_000);
    scope.commit();
    client.abort();
    expect(scope.upstream.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears its wait when reading is over before it', () => {
    const shutdown = new AbortScope();
    const client = new ClientScope(shutdown);
    const scope = new StreamedCallScope(client, 2_000);
    scope.commit();
    client.abort();
    scope.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});
