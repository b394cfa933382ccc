import { describe, expect, it } from 'vitest';
import { argumentsFromSchema, fragmentArguments } from './tool-arguments.js';

describe('argumentsFromSchema', () => {
  it('fills strings, numbers, booleans, nested objects and arrays', () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: 'integer' },
        ratio: { type: 'number' },
        metric: { type: 'boolean' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        maybe: { type: ['string', 'null'] },
        where: { type: 'object', properties: { lat: { type: 'number' } } },
        tags: { type: 'array', items: { type: 'string' } },
      },
    };
    expect(argumentsFromSchema(schema)).toEqual({
      city: 'sim',
      days: 1,
      ratio: 1,
      metric: true,
      unit: 'celsius',
      maybe: 'sim',
      where: { lat: 1 },
      tags: ['sim'],
    });
  });

  it('fills only required properties when the schema lists them', () => {
    const schema = {
      type: 'object',
      properties: { command: { type: 'string' }, run_in_background: { type: 'boolean' } },
      required: ['command'],
    };
    expect(argumentsFromSchema(schema)).toEqual({ command: 'echo sim-tool-ran' });
  });

  it('puts a harmless command in command/cmd properties, as a string or an argv array', () => {
    expect(argumentsFromSchema({ type: 'object', properties: { cmd: { type: 'string' } } })).toEqual({ cmd: 'echo sim-tool-ran' });
    expect(argumentsFromSchema({ type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } })).toEqual({
      command: ['echo', 'sim-tool-ran'],
    });
  });

  it('gives an empty object for a missing or empty schema', () => {
    expect(argumentsFromSchema(undefined)).toEqual({});
    expect(argumentsFromSchema({ type: 'object', properties: {} })).toEqual({});
  });
});

describe('fragmentArguments', () => {
  it('splits into at least three fragments that join back to the input', () => {
    for (const json of ['{}', '{"a":1}', JSON.stringify({ location: 'San Francisco', days: 3, unicode: 'é😀' })]) {
      const fragments = fragmentArguments(json);
      expect(fragments.length).toBeGreaterThanOrEqual(3);
      expect(fragments.join('')).toBe(json);
    }
  });

  it('never splits a surrogate pair', () => {
    const fragments = fragmentArguments('"😀😀😀😀😀😀"');
    for (const fragment of fragments) expect(fragment).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  });
});
