import { describe, expect, it } from 'vitest';
import { BoundedLabelValues, overflowLabelValue } from './bounded-label-values.js';

describe('BoundedLabelValues', () => {
  it('passes values through up to its limit, then answers other for new ones but keeps the known ones', () => {
    const values = new BoundedLabelValues(2);
    expect(values.value('a')).toBe('a');
    expect(values.value('b')).toBe('b');
    expect(values.value('c')).toBe(overflowLabelValue);
    expect(values.value('a')).toBe('a');
    expect(values.value('b')).toBe('b');
  });
});
