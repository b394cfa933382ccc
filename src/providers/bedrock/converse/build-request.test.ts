import { describe, expect, it } from 'vitest';
import type { IrRequest } from '../../../ir/index.js';
import { readJsonFixture } from '../../../../test/support/fixtures.js';
import { buildConverseBody, buildConverseRequest } from './index.js';
import { makeRequest, novaTarget } from './converse.test-support.js';

const signature = 'EvYBCkgICxABGAIqQA9E9VC377UnbjdfXCw4RwQaaIXsqocZKzI3WwWtXT';

const conversation: IrRequest = makeRequest({
  messages: [
    { role: 'system', content: [{ type: 'text', text: 'You are terse.', cacheControl: { type: 'ephemeral' } }] },
    { role: 'system', developer: true, content: [{ type: 'text', text: 'Use metric units.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
    { role: 'user', content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } }] },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Two cities, two calls.', blob: { provider: 'bedrock', value: signature } },
        { type: 'reasoning', text: '', redacted: true, blob: { provider: 'bedrock', value: 'cnNuX3BVUGgx' } },
        { type: 'reasoning', text: 'Anthropic thinking', blob: { provider: 'anthropic', value: 'EqsFCqgF' } },
        { type: 'reasoning', text: 'unsigned thoughts' },
        { type: 'text', text: 'Checking both.' },
        { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'tool-call', id: 'functions.get_weather:2', name: 'get_weather', arguments: '' },
      ],
    },
    { role: 'tool', content: [{ type: 'tool-result', callId: 'call_1', content: '18 °C' }] },
    {
      role: 'tool',
      content: [{ type: 'tool-result', callId: 'functions.get_weather:2', content: [{ type: 'text', text: 'timeout' }], isError: true, cacheControl: { type: 'ephemeral' } }],
    },
    { role: 'system', content: [{ type: 'text', text: 'Answer in one line.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Summarise.' }] },
  ],
  tools: [
    { type: 'function', name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } }, cacheControl: { type: 'ephemeral' } },
    { type: 'function', name: 'now', parameters: {} },
    { type: 'hosted', name: 'web_search', format: 'responses', definition: { type: 'web_search' } },
  ],
  toolChoice: { type: 'required' },
  params: { maxOutputTokens: 1000, temperature: 0.2, topP: 0.9, topK: 40, stop: ['END'], seed: 7 },
});

describe('IR request → Converse body', () => {
  it('puts leading system turns in system, with a cache point after the block marked for caching', () => {
    const body = buildConverseBody(conversation, novaTarget);
    expect(body.system).toEqual([{ text: 'You are terse.' }, { cachePoint: { type: 'default' } }, { text: 'Use metric units.' }]);
  });

  it('merges consecutive turns of one role and puts tool results first in the user turn that answers the calls', () => {
    const body = buildConverseBody(conversation, novaTarget);
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[0]?.content).toEqual([
      { text: 'Weather in Paris and Rome?' },
      { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } },
    ]);
    expect(body.messages[2]?.content).toEqual([
      { toolResult: { toolUseId: 'call_1', content: [{ text: '18 °C' }] } },
      { toolResult: { toolUseId: 'functions_get_weather_2', content: [{ text: 'timeout' }], status: 'error' } },
      { cachePoint: { type: 'default' } },
      { text: 'Answer in one line.' },
      { text: 'Summarise.' },
    ]);
  });

  it('replays Bedrock reasoning with its signature or redacted payload and leaves out reasoning it cannot verify', () => {
    const assistant = buildConverseBody(conversation, novaTarget).messages[1];
    expect(assistant?.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'Two cities, two calls.', signature } } },
      { reasoningContent: { redactedContent: 'cnNuX3BVUGgx' } },
      { text: 'Checking both.' },
      { toolUse: { toolUseId: 'call_1', name: 'get_weather', input: { city: 'Paris' } } },
      { toolUse: { toolUseId: 'functions_get_weather_2', name: 'get_weather', input: {} } },
    ]);
  });

  it('declares function tools with their schemas, a cache point after a cached one, and any for a required choice', () => {
    const body = buildConverseBody(conversation, novaTarget);
    expect(body.toolConfig).toEqual({
      tools: [
        { toolSpec: { name: 'get_weather', description: 'Weather for a city', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } } } } } },
        { cachePoint: { type: 'default' } },
        { toolSpec: { name: 'now', inputSchema: { json: { type: 'object', properties: {} } } } },
      ],
      toolChoice: { any: {} },
    });
  });

  it('sends the sampling parameters Converse names and nothing it does not', () => {
    const body = buildConverseBody(conversation, novaTarget);
    expect(body.inferenceConfig).toEqual({ maxTokens: 1000, temperature: 0.2, topP: 0.9, stopSequences: ['END'] });
    expect(body).not.toHaveProperty('additionalModelRequestFields');
    expect(JSON.stringify(body)).not.toContain('seed');
  });

  it('maps a named tool choice and auto, and sends no tools for none when the history calls none', () => {
    const tools = conversation.tools;
    expect(buildConverseBody(makeRequest({ tools, toolChoice: { type: 'tool', name: 'now' } }), novaTarget).toolConfig?.toolChoice).toEqual({ tool: { name: 'now' } });
    expect(buildConverseBody(makeRequest({ tools, toolChoice: { type: 'auto' } }), novaTarget).toolConfig?.toolChoice).toEqual({ auto: {} });
    expect(buildConverseBody(makeRequest({ tools, toolChoice: { type: 'none' } }), novaTarget)).not.toHaveProperty('toolConfig');
  });

  it('declares the tools a history calls even when the request no longer does, since Converse refuses toolUse blocks without toolConfig', () => {
    const request = makeRequest({ ...conversation, tools: undefined, toolChoice: { type: 'none' } });
    expect(buildConverseBody(request, novaTarget).toolConfig).toEqual({
      tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object', properties: {} } } } }],
    });
  });

  it('refuses images at a web address, which Converse cannot fetch, and sends s3:// ones as an S3 location', () => {
    const web = makeRequest({ messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 'https://example.com/cat.png' } }] }] });
    expect(() => buildConverseBody(web, novaTarget)).toThrow(expect.objectContaining({ code: 'unsupported_combination', param: 'messages[0]' }));
    const s3 = makeRequest({ messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 's3://bucket/cat.jpg' } }] }] });
    expect(buildConverseBody(s3, novaTarget).messages[0]?.content).toEqual([{ image: { format: 'jpeg', source: { s3Location: { uri: 's3://bucket/cat.jpg' } } } }]);
  });

  it('sends a data: URL image as its bytes and a PDF as a named document', () => {
    const request = makeRequest({
      messages: [{
        role: 'user',
        content: [
          { type: 'image', source: { kind: 'url', url: 'data:image/webp;base64,UklGRg==' } },
          { type: 'file', filename: 'Q3 report (final).v2.pdf', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } },
          { type: 'file', source: { kind: 'text', mediaType: 'text/plain', text: 'notes' } },
        ],
      }],
    });
    expect(buildConverseBody(request, novaTarget).messages[0]?.content).toEqual([
      { image: { format: 'webp', source: { bytes: 'UklGRg==' } } },
      { document: { format: 'pdf', name: 'Q3 report (final) v2', source: { bytes: 'JVBERi0=' } } },
      { document: { format: 'txt', name: 'document 2', source: { bytes: Buffer.from('notes').toString('base64') } } },
    ]);
  });

  it('refuses tool-call arguments that are not a JSON object rather than send different ones', () => {
    const request = makeRequest({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        { role: 'assistant', content: [{ type: 'tool-call', id: 'c', name: 'now', arguments: '[1,2]' }] },
      ],
      tools: conversation.tools,
    });
    expect(() => buildConverseBody(request, novaTarget)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'messages[1]' }));
  });

  it('asks for structured output with the schema as JSON text, and marks a strict tool strict', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
    const request = makeRequest({
      responseFormat: { type: 'json_schema', name: 'answer', schema, description: 'The answer' },
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} }, strict: true }],
    });
    const body = buildConverseBody(request, novaTarget);
    expect(body.outputConfig).toEqual({ textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: JSON.stringify(schema), name: 'answer', description: 'The answer' } } } });
    expect(body.toolConfig?.tools[0]).toEqual({ toolSpec: { name: 'lookup', inputSchema: { json: { type: 'object', properties: {} } }, strict: true } });
    expect(buildConverseBody(makeRequest({ responseFormat: { type: 'json_object' } }), novaTarget)).not.toHaveProperty('outputConfig');
  });

  it('refuses more than one choice', () => {
    expect(() => buildConverseBody(makeRequest({ params: { choiceCount: 2 } }), novaTarget)).toThrow(expect.objectContaining({ code: 'unsupported_parameter', param: 'n' }));
  });
});

describe('reasoning in additionalModelRequestFields, by model family', () => {
  const reasoning = makeRequest({ reasoning: { effort: 'high' } });

  it('gives Claude a thinking budget below its output limit, and leaves temperature out as Claude requires with thinking on', () => {
    const claude = { ...novaTarget, model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' };
    const body = buildConverseBody({ ...reasoning, params: { temperature: 0.3 } }, claude);
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 16384 } });
    expect(body.inferenceConfig).toEqual({ maxTokens: 16384 + 4096 });
    const capped = buildConverseBody({ ...reasoning, params: { maxOutputTokens: 4000 } }, claude);
    expect(capped.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 2000 } });
    expect(capped.inferenceConfig).toEqual({ maxTokens: 4000 });
  });

  it('gives Nova 2 its reasoningConfig and gpt-oss its reasoning_effort', () => {
    expect(buildConverseBody(reasoning, { ...novaTarget, model: 'global.amazon.nova-2-lite-v1:0' }).additionalModelRequestFields)
      .toEqual({ reasoningConfig: { type: 'enabled', maxReasoningEffort: 'high' } });
    expect(buildConverseBody(makeRequest({ reasoning: { effort: 'minimal' } }), { ...novaTarget, model: 'openai.gpt-oss-120b-1:0' }).additionalModelRequestFields)
      .toEqual({ reasoning_effort: 'low' });
  });

  it('sends no reasoning field to a model family that takes none, nor when reasoning is off', () => {
    expect(buildConverseBody(reasoning, { ...novaTarget, model: 'meta.llama3-3-70b-instruct-v1:0' })).not.toHaveProperty('additionalModelRequestFields');
    expect(buildConverseBody(makeRequest({ reasoning: { effort: 'none' } }), { ...novaTarget, model: 'openai.gpt-oss-20b-1:0' })).not.toHaveProperty('additionalModelRequestFields');
  });

  it('merges the caller\'s own Converse fields, the gateway\'s reasoning field winning', () => {
    const request = makeRequest({
      reasoning: { effort: 'low' },
      extensions: { bedrock: { guardrailConfig: { guardrailIdentifier: 'g1', guardrailVersion: '1' }, additionalModelRequestFields: { top_k: 5, reasoning_effort: 'high' } } },
    });
    const body = buildConverseBody(request, { ...novaTarget, model: 'openai.gpt-oss-20b-1:0' });
    expect(body['guardrailConfig']).toEqual({ guardrailIdentifier: 'g1', guardrailVersion: '1' });
    expect(body.additionalModelRequestFields).toEqual({ top_k: 5, reasoning_effort: 'low' });
  });
});

describe('the Converse call', () => {
  it('posts to /model/{modelId}/converse, the model id encoded as one path segment', () => {
    const call = buildConverseRequest(makeRequest(), novaTarget);
    expect(call.url).toBe('https://bedrock-runtime.us-east-1.amazonaws.com/model/us.amazon.nova-pro-v1%3A0/converse');
    expect(call.headers['content-type']).toBe('application/json');
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.meta.llama3-3-70b-instruct-v1:0';
    expect(buildConverseRequest(makeRequest({ stream: true }), { ...novaTarget, model: arn }).url)
      .toBe(`https://bedrock-runtime.us-east-1.amazonaws.com/model/${encodeURIComponent(arn)}/converse-stream`);
  });

  it('writes the tool-use request AWS documents for Converse', () => {
    const documented = readJsonFixture('bedrock/converse/docs-tool-use.request.json');
    const request = makeRequest({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the most popular song on WZPZ?' }] }],
      tools: [{
        type: 'function',
        name: 'top_song',
        description: 'Get the most popular song played on a radio station.',
        parameters: {
          type: 'object',
          properties: { sign: { type: 'string', description: 'The call sign for the radio station for which you want the most popular song. Example calls signs are WZPZ and WKRP.' } },
          required: ['sign'],
        },
      }],
    });
    expect(JSON.parse(buildConverseRequest(request, novaTarget).body)).toEqual(documented);
  });
});
