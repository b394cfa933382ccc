import { describe, expect, it } from 'vitest';
import { vertexModelIds } from './vertex-model-id.js';

describe('the ids a Vertex model is priced under', () => {
  it('tries a versioned partner model as written, with a hyphen, then unversioned', () => {
    expect(vertexModelIds('claude-sonnet-4-5@20250929')).toEqual(['claude-sonnet-4-5@20250929', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5']);
  });

  it('takes a model without a version as it is, and a resource path by its last part', () => {
    expect(vertexModelIds('gemini-2.5-flash')).toEqual(['gemini-2.5-flash']);
    expect(vertexModelIds('projects/p/locations/us-east5/publishers/anthropic/models/claude-opus-4-1@20250805')[0]).toBe('claude-opus-4-1@20250805');
    expect(vertexModelIds('publishers/google/models/gemini-2.0-flash-001')).toEqual(['gemini-2.0-flash-001']);
  });
});
