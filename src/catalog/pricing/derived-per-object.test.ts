import { describe, expect, it } from 'vitest';
import { derivedPerObject } from './derived-per-object.js';

describe('derivedPerObject', () => {
  it('works a value out once per object, whichever object was asked about last', () => {
    const asked: string[] = [];
    const lengthOf = derivedPerObject((word: { text: string }) => {
      asked.push(word.text);
      return word.text.length;
    });
    const short = { text: 'ab' };
    const long = { text: 'abcdef' };
    expect([lengthOf(short), lengthOf(short), lengthOf(long), lengthOf(short), lengthOf(long)]).toEqual([2, 2, 6, 2, 6]);
    expect(asked).toEqual(['ab', 'abcdef']);
  });

  it('keeps an undefined value rather than working it out again', () => {
    let derivations = 0;
    const nothing = derivedPerObject((_key: object): number | undefined => {
      derivations += 1;
      return undefined;
    });
    const first = {};
    const second = {};
    for (const key of [first, second, first, second]) expect(nothing(key)).toBeUndefined();
    expect(derivations).toBe(2);
  });
});
