import { describe, expect, it } from 'vitest';
import { readJsonFixture } from '../../../../test/support/fixtures.js';
import { decodeConverseResponse } from './index.js';
import { makeRequest } from './converse.test-support.js';

describe('Converse answer → IR response', () => {
  it('keeps Claude\'s reasoning with its signature as a Bedrock blob, then the text (recorded answer)', () => {
    const response = decodeConverseResponse(readJsonFixture('bedrock/converse/amazon-bedrock-reasoning.json'), makeRequest());
    expect(response.content).toEqual([
      {
        type: 'reasoning',
        text: 'Let me count the r\'s in "strawberry":\n\ns-t-r-a-w-b-e-r-r-y\n\nThere are 3 r\'s.',
        blob: { provider: 'bedrock', value: expect.stringMatching(/^EvYBCkgICxABGAIqQA9E9VC377/) },
      },
      { type: 'text', text: 'There are **3** r\'s in "strawberry":\n\n1. st**r**awbe**r****r**y' },
    ]);
    expect(response.finish).toEqual({ reason: 'stop', raw: 'end_turn' });
    expect(response.usage).toEqual({ inputUncached: 51, cacheRead: 0, cacheWrite: 0, output: 78, reasoning: 0 });
    expect(response.model).toBe('bedrock-public');
  });

  it('keeps reasoning that came without a signature as plain reasoning (recorded Nova 2 answer)', () => {
    const response = decodeConverseResponse(readJsonFixture('bedrock/converse/amazon-bedrock-nova-2-high-reasoning-success.json'), makeRequest());
    expect(response.content).toEqual([{ type: 'reasoning', text: '[REDACTED].' }, { type: 'text', text: 'ok' }]);
    expect(response.usage.output).toBe(2980);
  });

  it('turns a toolUse block into a tool call with JSON arguments (documented answer)', () => {
    const response = decodeConverseResponse(readJsonFixture('bedrock/converse/docs-tool-use.response.json'), makeRequest());
    expect(response.content).toEqual([{ type: 'tool-call', id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'top_song', arguments: '{"sign":"WZPZ"}' }]);
    expect(response.finish).toEqual({ reason: 'tool-calls', raw: 'tool_use' });
  });

  it('makes a tool-use id fit the pattern Converse takes back, and unwraps a custom tool\'s raw input', () => {
    const body = {
      output: { message: { role: 'assistant', content: [
        { toolUse: { toolUseId: 'functions.read_file:1', name: 'read_file', input: { path: 'a.ts' } } },
        { toolUse: { toolUseId: 'tooluse_2', name: 'apply_patch', input: { input: '*** Begin Patch' } } },
      ] } },
      stopReason: 'tool_use',
    };
    const request = makeRequest({ tools: [{ type: 'custom', name: 'apply_patch' }] });
    expect(decodeConverseResponse(body, request).content).toEqual([
      { type: 'tool-call', id: 'functions_read_file_1', name: 'read_file', arguments: '{"path":"a.ts"}' },
      { type: 'tool-call', id: 'tooluse_2', name: 'apply_patch', arguments: '*** Begin Patch', kind: 'custom' },
    ]);
  });

  it('keeps redacted reasoning as an opaque Bedrock blob and blocks without a neutral meaning in extensions', () => {
    const body = {
      output: { message: { role: 'assistant', content: [
        { reasoningContent: { redactedContent: 'cnNuX3BVUGgx' } },
        { citationsContent: { citations: [] } },
        { text: 'Hi' },
      ] } },
      stopReason: 'end_turn',
      additionalModelResponseFields: { stop_sequence: null },
    };
    const response = decodeConverseResponse(body, makeRequest());
    expect(response.content).toEqual([
      { type: 'reasoning', text: '', redacted: true, blob: { provider: 'bedrock', value: 'cnNuX3BVUGgx' } },
      { type: 'text', text: 'Hi' },
    ]);
    expect(response.extensions?.['bedrock']?.['content']).toEqual([{ after: 1, block: { citationsContent: { citations: [] } } }]);
  });

  it('reports the stop sequence that matched', () => {
    const body = { output: { message: { role: 'assistant', content: [{ text: 'one two' }] } }, stopReason: 'stop_sequence', additionalModelResponseFields: { stop_sequence: 'three' } };
    expect(decodeConverseResponse(body, makeRequest()).finish).toEqual({ reason: 'stop-sequence', raw: 'stop_sequence', stopSequence: 'three' });
  });

  it('refuses an answer without an output message', () => {
    expect(() => decodeConverseResponse({ stopReason: 'end_turn' }, makeRequest())).toThrow(expect.objectContaining({ code: 'upstream_invalid_response' }));
    expect(() => decodeConverseResponse('nope', makeRequest())).toThrow(expect.objectContaining({ code: 'upstream_invalid_response' }));
  });
});
