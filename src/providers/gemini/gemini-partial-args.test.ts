import { describe, expect, it } from 'vitest';
import { createArgsAccumulator, parseJsonPath } from './gemini-partial-args.js';

describe('streamed function-call arguments', () => {
  it('parses dotted, indexed and quoted JSON paths', () => {
    expect(parseJsonPath('$.recipe.items[1].name')).toEqual(['recipe', 'items', 1, 'name']);
    expect(parseJsonPath("$['odd key'].x")).toEqual(['odd key', 'x']);
    expect(parseJsonPath('$')).toEqual([]);
  });

  it('appends string fragments at one path and sets typed leaves in nested containers', () => {
    const accumulator = createArgsAccumulator();
    accumulator.apply([{ jsonPath: '$.title', stringValue: 'Lasa', willContinue: true }]);
    accumulator.apply([{ jsonPath: '$.title', stringValue: 'gna' }]);
    accumulator.apply([
      { jsonPath: '$.servings', numberValue: 4 },
      { jsonPath: '$.vegetarian', boolValue: false },
      { jsonPath: '$.items[0].name', stringValue: 'pasta' },
      { jsonPath: '$.items[1].name', stringValue: 'cheese' },
      { jsonPath: '$.note', nullValue: 'NULL_VALUE' },
    ]);
    expect(accumulator.value()).toEqual({
      title: 'Lasagna',
      servings: 4,
      vegetarian: false,
      items: [{ name: 'pasta' }, { name: 'cheese' }],
      note: null,
    });
  });

  it('starts from args already given and never writes through __proto__', () => {
    const accumulator = createArgsAccumulator({ unit: 'C' });
    accumulator.apply([{ jsonPath: '$.__proto__.polluted', stringValue: 'yes' }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The key is kept as data: the model really sent it.
    expect(JSON.stringify(accumulator.value())).toBe('{"unit":"C","__proto__":{"polluted":"yes"}}');
  });
});
