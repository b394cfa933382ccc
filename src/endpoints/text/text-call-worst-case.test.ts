import { describe, expect, it } from 'vitest';
import type { CatalogModel, CatalogRoute } from '../../catalog/model-catalog.js';
import { parseUsdToPico } from '../../catalog/pricing/decimal-usd.js';
import type { PriceSchedule } from '../../catalog/pricing/model-price.js';
import { scheduleOf } from '../../catalog/pricing/price-schedule.js';
import { textCallWorstCase } from './text-call-worst-case.js';

const flat = (usd: string) => ({ base: parseUsdToPico(usd), tiers: [] });
function perMillion(input: string, output: string): PriceSchedule {
  const text = { input: flat(input), output: flat(output), cacheRead: flat(input), cacheWrite: flat(input), cacheWriteOneHour: flat(input), reasoning: flat(output) };
  return scheduleOf([{ effectiveFrom: '2025-01-01', text }], 'vendor-dataset');
}

function route(model: string, prices?: PriceSchedule): CatalogRoute {
  return { target: { providerName: model, kind: 'anthropic', baseUrl: 'http://127.0.0.1:9', model }, timeoutMs: undefined, ...(prices === undefined ? {} : { prices }) };
}

function model(routes: CatalogRoute[]): CatalogModel {
  return { id: 'm', aliases: [], outputModality: 'text', ownedBy: 'x', created: 0, routes, callable: true, prices: perMillion('3', '15') };
}

const body = { model: 'm', max_tokens: 1_000_000, messages: [{ role: 'user', content: 'hi' }] };
const rawBody = JSON.stringify(body);
const worst = (routes: CatalogRoute[]) => textCallWorstCase('messages', { model: model(routes), rawBody, parsedBody: body, forwarded: {} }, Date.parse('2026-06-01T00:00:00Z'));

describe("a text call's worst case", () => {
  it('covers the dearest route that may serve it, when a later route has prices of its own', () => {
    const modelOnly = worst([route('first'), route('second')]);
    // A million output tokens at $15, and the body's bytes at $3 a million.
    expect(modelOnly).toBe(15_000_000_000n + BigInt(rawBody.length) * 3_000n);
    expect(worst([route('first'), route('second', perMillion('3.3', '16.5'))])).toBe(16_500_000_000n + BigInt(rawBody.length) * 3_300n);
    expect(worst([route('first'), route('second', perMillion('1', '5'))])).toBe(modelOnly);
  });
});
