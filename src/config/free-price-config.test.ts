import { describe, expect, it } from 'vitest';
import { configSchema } from './config-schema.js';

const model = (price: unknown) => ({
  providers: { local: { type: 'openai-compatible', base_url: 'http://127.0.0.1:1/v1' } },
  models: [{ id: 'm', routes: [{ provider: 'local', model: 'a' }], price }],
});

describe('price: { free: true }', () => {
  it('is taken alone or with its date', () => {
    expect(configSchema.safeParse(model({ free: true })).success).toBe(true);
    expect(configSchema.safeParse(model([{ free: true, effective_from: '2026-01-01' }, { input_per_mtok: '1.00', effective_from: '2027-01-01' }])).success).toBe(true);
  });

  it('is refused beside a rate or a markup, naming the field, since a free price cannot also charge', () => {
    for (const extra of [{ input_per_mtok: '1.00' }, { markup_percent: '10' }]) {
      const parsed = configSchema.safeParse(model({ free: true, ...extra }));
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['models.0.price.free']);
    }
    expect(configSchema.safeParse(model({ free: false })).success).toBe(false);
  });
});
