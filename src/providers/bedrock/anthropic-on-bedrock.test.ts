import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  anthropicEventFromFrame,
  bedrockModelUrl,
  betasFromHeader,
  countTokensBody,
  invokeBodyFromMessages,
  invokeUrl,
  readCountedTokens,
  rewriteMessagesTextForBedrock,
} from './anthropic-on-bedrock.js';

function fixture(name: string): string {
  return readFileSync(new URL(`../../../test/fixtures/bedrock/${name}`, import.meta.url), 'utf8');
}

const documentedRequest = JSON.parse(fixture('invoke-claude-request.json')) as Record<string, unknown>;

describe('Claude on Bedrock: URLs', () => {
  it('puts the model id in the path as one escaped segment (ARNs, inference profiles)', () => {
    expect(invokeUrl('https://bedrock-runtime.us-east-1.amazonaws.com/', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', false)).toBe(
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke',
    );
    expect(invokeUrl('https://vpce.example', 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-haiku', true)).toBe(
      'https://vpce.example/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Ainference-profile%2Fus.anthropic.claude-3-haiku/invoke-with-response-stream',
    );
    expect(bedrockModelUrl('https://b', 'anthropic.claude-3-haiku', 'count-tokens')).toBe('https://b/model/anthropic.claude-3-haiku/count-tokens');
  });
});

describe('Claude on Bedrock: the InvokeModel body', () => {
  it("turns a Messages body into AWS's documented InvokeModel body", () => {
    const { anthropic_version: _version, anthropic_beta: _beta, ...messagesPart } = documentedRequest;
    const messagesBody = { model: 'claude-sonnet-4-5', stream: true, ...messagesPart };
    expect(invokeBodyFromMessages(messagesBody, betasFromHeader(' computer-use-2024-10-22 '))).toEqual(documentedRequest);
  });

  it('splits the anthropic-beta header into the array Bedrock takes', () => {
    expect(betasFromHeader('interleaved-thinking-2025-05-14, context-1m-2025-08-07,')).toEqual(['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07']);
    expect(betasFromHeader(undefined)).toEqual([]);
  });

  it("rewrites a passed-through body as text, keeping every other byte the client sent", () => {
    const sent = '{\n  "model": "claude-x",\n  "max_tokens": 1.0e3,\n  "messages": [{"role":"user","content":"hi \\"model\\": 1"}],\n  "stream": true,\n  "metadata": {"model": "nested"}\n}';
    const parsed = JSON.parse(sent) as Record<string, unknown>;
    expect(rewriteMessagesTextForBedrock(sent, parsed, [])).toBe(
      '{"anthropic_version":"bedrock-2023-05-31",\n  "max_tokens": 1.0e3,\n  "messages": [{"role":"user","content":"hi \\"model\\": 1"}],\n  "metadata": {"model": "nested"}\n}',
    );
    expect(rewriteMessagesTextForBedrock('{"messages":[],"stream":false,"model":"m"}', { messages: [], stream: false, model: 'm' }, ['b1'])).toBe(
      '{"anthropic_version":"bedrock-2023-05-31","messages":[],"anthropic_beta":["b1"]}',
    );
  });

  it("replaces a client's dated anthropic_version with the one Bedrock documents", () => {
    const sent = '{"anthropic_version":"2023-06-01","max_tokens":5,"messages":[]}';
    expect(rewriteMessagesTextForBedrock(sent, JSON.parse(sent) as Record<string, unknown>, [])).toBe('{"anthropic_version":"bedrock-2023-05-31","max_tokens":5,"messages":[]}');
  });

  it('re-serialises a body whose member names the scanner cannot find (escaped names)', () => {
    const sent = '{"mod\\u0065l":"claude-x","max_tokens":5,"messages":[]}';
    const parsed = JSON.parse(sent) as Record<string, unknown>;
    expect(JSON.parse(rewriteMessagesTextForBedrock(sent, parsed, []))).toEqual({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 5, messages: [] });
  });
});

describe('Claude on Bedrock: CountTokens', () => {
  it("wraps the InvokeModel body in base64 as AWS's CountTokens request does", () => {
    const documented = JSON.parse(fixture('count-tokens-request.json')) as { input: { invokeModel: { body: string } } };
    const countedBody = JSON.parse(Buffer.from(documented.input.invokeModel.body, 'base64').toString('utf8')) as Record<string, unknown>;
    const made = JSON.parse(countTokensBody({ model: 'claude-x', ...countedBody }, [])) as { input: { invokeModel: { body: string } } };
    expect(Object.keys(made)).toEqual(['input']);
    expect(JSON.parse(Buffer.from(made.input.invokeModel.body, 'base64').toString('utf8'))).toEqual(countedBody);
  });

  it('gives a count request, which has no max_tokens, the smallest one InvokeModel accepts', () => {
    const made = JSON.parse(countTokensBody({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, ['b'])) as { input: { invokeModel: { body: string } } };
    expect(JSON.parse(Buffer.from(made.input.invokeModel.body, 'base64').toString('utf8'))).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      messages: [{ role: 'user', content: 'hi' }],
      anthropic_beta: ['b'],
      max_tokens: 1,
    });
  });

  it("reads the count from CountTokens' answer", () => {
    expect(readCountedTokens(JSON.parse(fixture('count-tokens-response.json')))).toBe(14);
    expect(readCountedTokens({ input_tokens: 3 })).toBeUndefined();
  });
});

describe('Claude on Bedrock: stream frames', () => {
  it("decodes a chunk event's base64 bytes to the Anthropic event it carries, named by its type", () => {
    expect(anthropicEventFromFrame({ kind: 'event', eventType: 'chunk', payload: fixture('invoke-stream-chunk-payload.json') })).toEqual({
      event: 'content_block_delta',
      data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}',
    });
  });

  it('turns exception frames into Messages error events of the type their status stands for', () => {
    const recorded = { kind: 'exception', exceptionType: 'modelStreamErrorException', payload: '{"message":"Model Stream Error","originalStatusCode":500}' } as const;
    expect(JSON.parse(anthropicEventFromFrame(recorded)?.data ?? '')).toEqual({ type: 'error', error: { type: 'api_error', message: 'Model Stream Error' } });
    const throttled = anthropicEventFromFrame({ kind: 'exception', exceptionType: 'throttlingException', payload: '{"message":"Too many tokens"}' });
    expect(throttled?.event).toBe('error');
    expect(JSON.parse(throttled?.data ?? '')).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'Too many tokens' } });
    const unavailable = anthropicEventFromFrame({ kind: 'exception', exceptionType: 'serviceUnavailableException', payload: '{}' });
    expect(JSON.parse(unavailable?.data ?? '')).toMatchObject({ error: { type: 'overloaded_error' } });
  });
});
