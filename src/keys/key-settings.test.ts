import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/gateway-error.js';
import { apiKeyRecord } from './api-key-record.js';
import { parseKeyChanges, parseNewKeySettings, type ModelNames } from './key-settings.js';

const models: ModelNames = {
  publicId: (name) => ({ 'sim-gpt': 'sim-gpt', sim: 'sim-gpt', 'sim-claude': 'sim-claude', 'dall-e-3': 'sim-image' } as Record<string, string>)[name],
  known: ['sim-gpt', 'sim-claude', 'sim-image'],
};
const now = new Date('2026-11-26T12:00:00Z');
const plainKey = apiKeyRecord({ id: 'key_1', name: 'k', prefix: 'sy-abc', hash: 'ab', createdAt: now });
const adminKey = { ...plainKey, admin: true };

function refusal(parse: () => unknown): { code: string; param: string | undefined; message: string } {
  try {
    parse();
  } catch (error) {
    if (error instanceof GatewayError) return { code: error.code, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('new key settings', () => {
  it('parses every field: budgets exactly to the nano-dollar, aliases to public ids, a date to 00:00 UTC', () => {
    const settings = parseNewKeySettings(
      {
        name: '  ci  ',
        scopes: { endpoints: ['chat', 'messages', 'chat'], models: ['sim', 'sim-gpt', 'dall-e-3'] },
        budget_usd: '12.50',
        daily_budget_usd: '0.000000001',
        monthly_budget_usd: '9223372036.854775807',
        rpm: 60,
        tpm: 100000,
        concurrency: 4,
        expires_at: '2027-01-31',
      },
      models,
      now,
    );
    expect(settings).toEqual({
      name: 'ci',
      admin: false,
      scopes: { endpoints: ['chat', 'messages'], models: ['sim-gpt', 'sim-image'] },
      budgetNanoUsd: 12_500_000_000n,
      dailyBudgetNanoUsd: 1n,
      monthlyBudgetNanoUsd: 9_223_372_036_854_775_807n,
      rpm: 60,
      tpm: 100000,
      concurrency: 4,
      expiresAt: new Date('2027-01-31T00:00:00Z'),
    });
  });

  it('defaults to every scope, no limits, no expiry, not admin', () => {
    expect(parseNewKeySettings({ name: 'x', scopes: null, rpm: null }, models, now)).toEqual({
      name: 'x', admin: false, scopes: { endpoints: null, models: null },
      budgetNanoUsd: null, dailyBudgetNanoUsd: null, monthlyBudgetNanoUsd: null, rpm: null, tpm: null, concurrency: null, expiresAt: null,
    });
  });

  it('accepts an RFC 3339 expiry with an offset', () => {
    expect(parseNewKeySettings({ name: 'x', expires_at: '2027-01-31T12:00:00+02:00' }, models, now).expiresAt).toEqual(new Date('2027-01-31T10:00:00Z'));
  });

  it('gives an admin key every scope and refuses scopes on one', () => {
    expect(parseNewKeySettings({ name: 'root', admin: true }, models, now).scopes).toEqual({ endpoints: null, models: null });
    expect(refusal(() => parseNewKeySettings({ name: 'root', admin: true, scopes: { models: ['sim'] } }, models, now))).toMatchObject({ code: 'invalid_field', param: 'scopes' });
  });

  it.each([
    [{}, 'name', 'missing_field'],
    [{ name: 'x', colour: 'red' }, 'colour', 'unknown_parameter'],
    [{ name: 'x', scopes: { models: ['sim'], tools: [] } }, 'scopes.tools', 'unknown_parameter'],
    [{ name: 7 }, 'name', 'invalid_field'],
    [{ name: '   ' }, 'name', 'invalid_field'],
    [{ name: 'x', admin: 'yes' }, 'admin', 'invalid_field'],
    [{ name: 'x', scopes: ['chat'] }, 'scopes', 'invalid_field'],
    [{ name: 'x', scopes: { endpoints: 'chat' } }, 'scopes.endpoints', 'invalid_field'],
    [{ name: 'x', scopes: { endpoints: ['everything'] } }, 'scopes.endpoints', 'invalid_field'],
    [{ name: 'x', scopes: { models: ['nope'] } }, 'scopes.models', 'invalid_field'],
    [{ name: 'x', budget_usd: 12.5 }, 'budget_usd', 'invalid_field'],
    [{ name: 'x', budget_usd: '-1' }, 'budget_usd', 'invalid_field'],
    [{ name: 'x', daily_budget_usd: '0.0000000001' }, 'daily_budget_usd', 'invalid_field'],
    [{ name: 'x', monthly_budget_usd: '9223372036.854775808' }, 'monthly_budget_usd', 'invalid_field'],
    [{ name: 'x', rpm: 0 }, 'rpm', 'invalid_field'],
    [{ name: 'x', tpm: 1.5 }, 'tpm', 'invalid_field'],
    [{ name: 'x', concurrency: '4' }, 'concurrency', 'invalid_field'],
    [{ name: 'x', rpm: 2_147_483_648 }, 'rpm', 'invalid_field'],
    [{ name: 'x', expires_at: '2027-02-30' }, 'expires_at', 'invalid_field'],
    [{ name: 'x', expires_at: '2027-01-31T12:00:00' }, 'expires_at', 'invalid_field'],
    [{ name: 'x', expires_at: '2026-11-26' }, 'expires_at', 'invalid_field'],
    [{ name: 'x', expires_at: 1_900_000_000 }, 'expires_at', 'invalid_field'],
  ])('refuses %j naming %s', (body, param, code) => {
    expect(refusal(() => parseNewKeySettings(body, models, now))).toMatchObject({ code, param });
  });

  it('says which model is unknown and which are configured', () => {
    expect(refusal(() => parseNewKeySettings({ name: 'x', scopes: { models: ['nope'] } }, models, now)).message).toBe(
      "Invalid value for 'scopes.models': unknown model 'nope' (configured: sim-gpt, sim-claude, sim-image).",
    );
  });
});

describe('key changes', () => {
  it('keeps only the fields sent; null clears', () => {
    expect(parseKeyChanges({ rpm: null, scopes: { models: ['sim'] }, budget_usd: '3', expires_at: null }, models, now, plainKey)).toEqual({
      rpm: null,
      scopes: { models: ['sim-gpt'] },
      budgetNanoUsd: 3_000_000_000n,
      expiresAt: null,
    });
    expect(parseKeyChanges({ scopes: null }, models, now, plainKey)).toEqual({ scopes: { endpoints: null, models: null } });
    expect(parseKeyChanges({}, models, now, plainKey)).toEqual({});
  });

  it('refuses to change whether a key is an admin key, and scopes on an admin key', () => {
    expect(refusal(() => parseKeyChanges({ admin: true }, models, now, plainKey))).toMatchObject({ code: 'invalid_field', param: 'admin' });
    expect(refusal(() => parseKeyChanges({ scopes: { endpoints: ['chat'] } }, models, now, adminKey))).toMatchObject({ param: 'scopes' });
    expect(parseKeyChanges({ scopes: null, rpm: 5 }, models, now, adminKey)).toEqual({ scopes: { endpoints: null, models: null }, rpm: 5 });
  });

  it('refuses unknown fields and bad values, naming them', () => {
    expect(refusal(() => parseKeyChanges({ hash: 'ab' }, models, now, plainKey))).toMatchObject({ code: 'unknown_parameter', param: 'hash' });
    expect(refusal(() => parseKeyChanges({ tpm: -3 }, models, now, plainKey))).toMatchObject({ param: 'tpm' });
  });
});
