import { describe, expect, it } from 'vitest';
import { AbortScope } from '../call/abort-scope.js';
import type { CatalogRoute } from '../catalog/model-catalog.js';
import { GatewayError } from '../errors/gateway-error.js';
import { InProcessUpstreamCaps } from '../governance/upstream-caps/in-process-upstream-caps.js';
import type { UpstreamCaps } from '../governance/upstream-caps/upstream-caps.js';
import { inUpstreamSlot } from './in-upstream-slot.js';
import { runWithFallback } from './run-with-fallback.js';

const route = (providerName: string, maxConcurrency?: number): CatalogRoute => ({
  target: { providerName, kind: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' },
  timeoutMs: undefined,
  ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
});

const untouchable: UpstreamCaps = {
  acquire: () => {
    throw new Error('an uncapped route must not meet the caps');
  },
  held: () => new Map(),
};

describe('calls in a slot of their upstream concurrency cap', () => {
  it('runs an uncapped route without touching the caps', async () => {
    await expect(inUpstreamSlot(untouchable, route('free'), async () => 'answer', () => undefined)).resolves.toBe('answer');
  });

  it('holds the slot until the outcome says the call ended, and frees it when the attempt fails', async () => {
    const caps = new InProcessUpstreamCaps();
    let end: () => void = () => {};
    const ended = new Promise<void>((resolve) => (end = resolve));
    await inUpstreamSlot(caps, route('vendor', 1), async () => 'stream', () => ended);
    let sent = 0;
    const refusal = await inUpstreamSlot(caps, route('vendor', 1), async () => (sent += 1), () => undefined).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(GatewayError);
    expect(refusal).toMatchObject({ code: 'upstream_busy', status: 429, retryAfterSeconds: 1 });
    expect(sent).toBe(0);
    end();
    await ended;
    await Promise.resolve();
    await expect(inUpstreamSlot(caps, route('vendor', 1), async () => Promise.reject(new GatewayError('upstream_error', 'boom')), () => undefined)).rejects.toThrow('boom');
    expect(caps.held().get('vendor')).toBe(0);
  });

  it('skips a route at its cap without retrying it and falls back to the next', async () => {
    const caps = new InProcessUpstreamCaps();
    caps.acquire('busy', 1);
    const tried: string[] = [];
    const failures: string[] = [];
    const routes = [route('busy', 1), route('free')];
    const served = await runWithFallback(
      routes,
      { attemptsPerRoute: 3, backoffMs: 1_000 },
      new AbortScope(),
      (candidate) => inUpstreamSlot(caps, candidate, async () => tried.push(candidate.target.providerName), () => undefined),
      (report) => failures.push(report.error.code),
    );
    expect(served).toBe(1);
    expect(tried).toEqual(['free']);
    expect(failures).toEqual([]);
  });

  it('answers 429 upstream_busy when every route is at its cap, with nothing sent', async () => {
    const caps = new InProcessUpstreamCaps();
    caps.acquire('one', 1);
    caps.acquire('two', 2);
    caps.acquire('two', 2);
    let sent = 0;
    const started = Date.now();
    const refusal = await runWithFallback([route('one', 1), route('two', 2)], { attemptsPerRoute: 2, backoffMs: 1_000 }, new AbortScope(), (candidate) =>
      inUpstreamSlot(caps, candidate, async () => (sent += 1), () => undefined),
    ).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: 'upstream_busy', status: 429 });
    expect(sent).toBe(0);
    // No backoff between attempts on a route at its cap.
    expect(Date.now() - started).toBeLessThan(500);
  });
});
