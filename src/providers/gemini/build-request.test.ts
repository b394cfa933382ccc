import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import type { IrMessage, IrRequest, ReasoningEffort, ToolChoice } from '../../ir/index.js';
import type { GenerateContentRequest } from './wire/generate-content-request.js';
import type { UpstreamTarget } from '../provider-adapter.js';
import { buildGeminiBody, buildGeminiRequest } from './build-request.js';
import { placeholderThoughtSignature } from './gemini-contents.js';
import { makeRequest } from './gemini.test-support.js';

const target: UpstreamTarget = {
  providerName: 'gemini',
  kind: 'gemini',
  baseUrl: 'https://generativelanguage.googleapis.com',
  apiKey: 'test-key',
  model: 'gemini-3-pro-preview',
};

const weatherTool = {
  type: 'function' as const,
  name: 'weather',
  description: 'Current weather',
  parameters: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { location: { type: 'string' } },
    required: ['location'],
    additionalProperties: false,
  },
};

/** A conversation after one Gemini tool round, plus history another provider wrote. */
const conversation: IrMessage[] = [
  { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
  { role: 'system', developer: true, content: [{ type: 'text', text: 'Use metric units.' }] },
  { role: 'user', content: [{ type: 'text', text: 'Weather in SF?' }] },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Claude thinking', blob: { provider: 'anthropic', value: 'anthropic-signature' } },
      { type: 'reasoning', text: 'Looking up the weather', blob: { provider: 'gemini', value: 'sig-thought' } },
      { type: 'text', text: 'Let me check.' },
      {
        type: 'tool-call',
        id: 'call_r1_0',
        name: 'weather',
        arguments: '{"location":"San Francisco"}',
        blob: { provider: 'gemini', value: 'sig-call' },
      },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-result', callId: 'call_r1_0', content: '{"temperature":18}' }] },
  { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
];

function body(overrides: Partial<IrRequest>): GenerateContentRequest {
  return buildGeminiBody(makeRequest(overrides));
}

function thrown(action: () => unknown): GatewayError {
  try {
    action();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('Gemini request URL and headers', () => {
  it('uses generateContent, or streamGenerateContent with alt=sse when streaming', () => {
    expect(buildGeminiRequest(makeRequest(), target).url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:generateContent',
    );
    expect(buildGeminiRequest(makeRequest({ stream: true }), target).url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse',
    );
  });

  it('tolerates a trailing slash or /v1beta on the base URL and a models/ prefix', () => {
    const url = buildGeminiRequest(makeRequest(), { ...target, baseUrl: 'http://127.0.0.1:9/v1beta/', model: 'models/gemini-2.5-flash' }).url;
    expect(url).toBe('http://127.0.0.1:9/v1beta/models/gemini-2.5-flash:generateContent');
  });

  it('sends the key as x-goog-api-key with the operator headers, and no key header without a key', () => {
    const headers = buildGeminiRequest(makeRequest(), { ...target, headers: { 'x-extra': '1' } }).headers;
    expect(headers).toEqual({ 'content-type': 'application/json', 'x-goog-api-key': 'test-key', 'x-extra': '1' });
    const { apiKey: _unused, ...keyless } = target;
    expect(buildGeminiRequest(makeRequest(), keyless).headers['x-goog-api-key']).toBeUndefined();
  });
});

describe('Gemini request contents', () => {
  const built = body({ messages: conversation, tools: [weatherTool] });

  it('puts every system turn into systemInstruction', () => {
    expect(built.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }, { text: 'Use metric units.' }] });
    expect(built.contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
  });

  it('sends Gemini reasoning and signatures back on the same parts and drops foreign reasoning', () => {
    expect(built.contents[1]?.parts).toEqual([
      { thought: true, text: 'Looking up the weather', thoughtSignature: 'sig-thought' },
      { text: 'Let me check.' },
      { functionCall: { name: 'weather', args: { location: 'San Francisco' }, id: 'call_r1_0' }, thoughtSignature: 'sig-call' },
    ]);
    expect(JSON.stringify(built)).not.toContain('anthropic-signature');
  });

  it('recovers the function name of a tool result and merges it with the next user turn', () => {
    expect(built.contents[2]?.parts).toEqual([
      { functionResponse: { name: 'weather', response: { temperature: 18 }, id: 'call_r1_0' } },
      { text: 'And tomorrow?' },
    ]);
  });

  it('wraps a non-object result as {result} and an error as {error}', () => {
    const messages: IrMessage[] = [
      ...conversation.slice(2, 4),
      {
        role: 'tool',
        content: [
          { type: 'tool-result', callId: 'call_r1_0', name: 'weather', content: [{ type: 'text', text: '18 degrees' }] },
          { type: 'tool-result', callId: 'call_r1_0', content: 'service down', isError: true },
        ],
      },
    ];
    const parts = body({ messages }).contents[2]?.parts;
    expect(parts?.map((part) => part.functionResponse?.response)).toEqual([{ result: '18 degrees' }, { error: 'service down' }]);
  });

  it('refuses a tool result whose call cannot be found', () => {
    const messages: IrMessage[] = [{ role: 'tool', content: [{ type: 'tool-result', callId: 'missing', content: 'x' }] }];
    expect(thrown(() => body({ messages })).code).toBe('invalid_request');
  });

  it('keeps a signature that came on an empty text part and echoes a text signature', () => {
    const messages: IrMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Hello', blob: { provider: 'gemini', value: 'sig-text' } },
          { type: 'reasoning', text: '', blob: { provider: 'gemini', value: 'sig-empty' } },
        ],
      },
    ];
    expect(body({ messages }).contents[1]?.parts).toEqual([
      { text: 'Hello', thoughtSignature: 'sig-text' },
      { text: '', thoughtSignature: 'sig-empty' },
    ]);
  });

  it('puts a call signature a Messages or Responses client carried before the call back on the functionCall', () => {
    const messages: IrMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: '', blob: { provider: 'gemini', value: 'sig-call' } },
          { type: 'tool-call', id: 'call_1', name: 'weather', arguments: '{"location":"A"}' },
          { type: 'tool-call', id: 'call_2', name: 'weather', arguments: '{"location":"B"}' },
        ],
      },
    ];
    expect(body({ messages }).contents[1]?.parts).toEqual([
      { functionCall: { name: 'weather', args: { location: 'A' }, id: 'call_1' }, thoughtSignature: 'sig-call' },
      { functionCall: { name: 'weather', args: { location: 'B' }, id: 'call_2' } },
    ]);
  });

  it('signs the first function call of a foreign model turn with the documented placeholder only', () => {
    const messages: IrMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', id: 'toolu_1', name: 'weather', arguments: '{"location":"A"}', blob: { provider: 'anthropic', value: 'x' } },
          { type: 'tool-call', id: 'toolu_2', name: 'weather', arguments: '' },
        ],
      },
    ];
    const parts = body({ messages }).contents[1]?.parts ?? [];
    expect(parts.map((part) => part.thoughtSignature)).toEqual([placeholderThoughtSignature, undefined]);
    expect(parts[1]?.functionCall?.args).toEqual({});
  });

  it('sends base64 images inline, URLs as fileData with a guessed type, and data URLs inline', () => {
    const messages: IrMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } },
          { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.webp?size=2' } },
          { type: 'image', source: { kind: 'url', url: 'data:image/gif;base64,R0lG' } },
          { type: 'file', filename: 'report.pdf', source: { kind: 'url', url: 'https://example.com/download' } },
        ],
      },
    ];
    expect(body({ messages }).contents[0]?.parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
      { fileData: { fileUri: 'https://example.com/cat.webp?size=2', mimeType: 'image/webp' } },
      { inlineData: { mimeType: 'image/gif', data: 'R0lG' } },
      { fileData: { fileUri: 'https://example.com/download', mimeType: 'application/pdf' } },
    ]);
  });

  it('refuses a file id issued by another provider', () => {
    const messages: IrMessage[] = [{ role: 'user', content: [{ type: 'file', source: { kind: 'file', fileId: 'file-abc' } }] }];
    expect(thrown(() => body({ messages })).code).toBe('unsupported_combination');
  });
});

describe('Gemini request tools', () => {
  it('declares functions with their full JSON Schema in parametersJsonSchema and leaves out other formats’ hosted tools', () => {
    const built = body({
      tools: [weatherTool, { type: 'hosted', name: 'web_search', format: 'responses', definition: { type: 'web_search' } }],
    });
    expect(built.tools).toEqual([
      { functionDeclarations: [{ name: 'weather', description: 'Current weather', parametersJsonSchema: weatherTool.parameters }] },
    ]);
  });

  it.each<[ToolChoice, unknown]>([
    [{ type: 'auto' }, { mode: 'AUTO' }],
    [{ type: 'required' }, { mode: 'ANY' }],
    [{ type: 'none' }, { mode: 'NONE' }],
    [{ type: 'tool', name: 'weather' }, { mode: 'ANY', allowedFunctionNames: ['weather'] }],
  ])('maps tool choice %j', (toolChoice, functionCallingConfig) => {
    expect(body({ tools: [weatherTool], toolChoice }).toolConfig).toEqual({ functionCallingConfig });
  });

  it('declares a custom tool as a one-string function and replays its calls under that key', () => {
    const messages: IrMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'patch it' }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'apply_patch', kind: 'custom', arguments: '*** Begin Patch' }] },
    ];
    const built = body({ messages, tools: [{ type: 'custom', name: 'apply_patch' }] });
    const declaration = (built.tools?.[0]?.functionDeclarations as { name: string; parametersJsonSchema: unknown }[])[0];
    expect(declaration?.parametersJsonSchema).toMatchObject({ required: ['input'] });
    expect(built.contents[1]?.parts[0]?.functionCall?.args).toEqual({ input: '*** Begin Patch' });
  });
});

describe('Gemini generation config', () => {
  it('maps sampling parameters', () => {
    const built = body({
      params: { temperature: 0.5, topP: 0.9, topK: 40, maxOutputTokens: 256, stop: ['END'], seed: 7, presencePenalty: 0.1, frequencyPenalty: 0.2, choiceCount: 1 },
    });
    expect(built.generationConfig).toEqual({
      temperature: 0.5,
      topP: 0.9,
      topK: 40,
      maxOutputTokens: 256,
      stopSequences: ['END'],
      seed: 7,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      candidateCount: 1,
    });
  });

  it('refuses more than five stop sequences and more than one choice', () => {
    expect(thrown(() => body({ params: { stop: ['a', 'b', 'c', 'd', 'e', 'f'] } })).code).toBe('invalid_field');
    expect(body({ params: { stop: ['a', 'b', 'c', 'd', 'e'] } }).generationConfig?.stopSequences).toHaveLength(5);
    expect(thrown(() => body({ params: { choiceCount: 2 } })).code).toBe('unsupported_parameter');
  });

  it('asks for JSON with the schema for json_schema, and plain JSON for json_object', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, additionalProperties: false };
    expect(body({ responseFormat: { type: 'json_schema', name: 'answer', schema } }).generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
    expect(body({ responseFormat: { type: 'json_object' } }).generationConfig).toEqual({ responseMimeType: 'application/json' });
    expect(body({ responseFormat: { type: 'text' } }).generationConfig).toBeUndefined();
  });

  it.each<[ReasoningEffort, number]>([
    ['none', 0],
    ['minimal', 512],
    ['low', 1024],
    ['medium', 8192],
    ['high', 24576],
    ['xhigh', 32768],
    ['max', 32768],
  ])('turns effort %s into a thinking budget of %d', (effort, thinkingBudget) => {
    expect(body({ reasoning: { effort } }).generationConfig?.thinkingConfig).toEqual({ thinkingBudget });
  });

  it('prefers an explicit budget, turns thinking off when disabled, and asks for thoughts with a summary', () => {
    expect(body({ reasoning: { effort: 'low', budgetTokens: 3000 } }).generationConfig?.thinkingConfig).toEqual({ thinkingBudget: 3000 });
    expect(body({ reasoning: { enabled: false, effort: 'high', summary: 'auto' } }).generationConfig?.thinkingConfig).toEqual({ thinkingBudget: 0 });
    expect(body({ reasoning: { effort: 'medium', summary: 'detailed' } }).generationConfig?.thinkingConfig).toEqual({
      thinkingBudget: 8192,
      includeThoughts: true,
    });
    expect(body({ reasoning: { adaptive: true } }).generationConfig?.thinkingConfig).toEqual({ thinkingBudget: -1 });
  });

  it('forwards the request’s own gemini extensions', () => {
    const safetySettings = [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }];
    expect(body({ extensions: { gemini: { safetySettings }, chat: { logit_bias: {} } } })).toMatchObject({ safetySettings });
    expect(body({ extensions: { chat: { logit_bias: {} } } })).not.toHaveProperty('logit_bias');
  });
});
