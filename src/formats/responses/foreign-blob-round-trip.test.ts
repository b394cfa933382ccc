import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { IrStreamEvent } from '../../ir/index.js';
import { geminiAdapter } from '../../providers/gemini/index.js';
import type { UpstreamTarget } from '../../providers/provider-adapter.js';
import { fixtureChunks, readJsonFixture } from '../../../test/support/fixtures.js';
import { responsesFormat } from './index.js';

/**
 * The thoughtSignature Gemini puts on a function call, handed to a Responses client and echoed
 * back by it as the SDK returned it: it must reach Gemini on that functionCall part on the next
 * turn. Recorded Gemini answers → IR → Responses (JSON or SSE, read by the real SDK) → echoed
 * output → IR → Gemini request body.
 */
const firstInput = [{ role: 'user' as const, content: 'Weather in SF?' }];
const target: UpstreamTarget = { providerName: 'test', kind: 'gemini', baseUrl: 'https://upstream.test', apiKey: 'k', model: 'gemini-3-pro-preview' };

type GeminiPart = { functionCall?: { name: string }; thoughtSignature?: string };
type GeminiChunk = { candidates: { content: { parts: GeminiPart[] } }[] };

function sdkAnswering(body: string, contentType: string): OpenAI {
  return new OpenAI({ apiKey: 'k', baseURL: 'http://gateway.test/v1', maxRetries: 0, fetch: async () => new Response(body, { status: 200, headers: { 'content-type': contentType } }) });
}

function callSignature(chunks: readonly GeminiChunk[]): string | undefined {
  return chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []).find((part) => part.functionCall !== undefined)?.thoughtSignature;
}

/** The model parts Gemini receives after the client echoed `output` and answered its calls. */
function nextTurnModelParts(output: readonly OpenAI.Responses.ResponseOutputItem[]): GeminiPart[] {
  const results = output.flatMap((item) => (item.type === 'function_call' ? [{ type: 'function_call_output', call_id: item.call_id, output: 'sunny' }] : []));
  const request = responsesFormat.decodeRequest({ model: 'public-model', input: [...firstInput, ...output, ...results] });
  const body = JSON.parse(geminiAdapter.text.buildRequest(request, target, {}).body) as { contents: { role: string; parts: GeminiPart[] }[] };
  return body.contents.filter((content) => content.role === 'model').flatMap((content) => content.parts);
}

describe('Responses client, Gemini upstream: the signature Gemini put on its function call', () => {
  it('is handed out in a summary-less reasoning item before the call and goes back on the functionCall (JSON answer)', async () => {
    const recorded = readJsonFixture('google/generate-content/google-tool-call-gemini3.json') as GeminiChunk;
    const signature = callSignature([recorded]);
    const request = responsesFormat.decodeRequest({ model: 'public-model', input: firstInput });
    const encoded = responsesFormat.encodeResponse(geminiAdapter.text.decodeResponse(recorded, request), { requestId: 'req_1', model: 'public-model', request });
    const response = await sdkAnswering(JSON.stringify(encoded), 'application/json').responses.create({ model: 'public-model', input: firstInput });
    expect(signature).toBeDefined();
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    expect(response.output[0]).toMatchObject({ summary: [], encrypted_content: `switchyard.v1.gemini.signed.${signature}` });
    expect(nextTurnModelParts(response.output)).toEqual([expect.objectContaining({ functionCall: expect.objectContaining({ name: 'weather' }), thoughtSignature: signature })]);
  });

  it('goes back on the functionCall when the answer was streamed, with no stand-in', async () => {
    const lines = fixtureChunks('google/generate-content/google-tool-call-gemini3.chunks.txt');
    const signature = callSignature(lines.map((line) => JSON.parse(line) as GeminiChunk));
    const request = responsesFormat.decodeRequest({ model: 'public-model', input: firstInput, stream: true });
    const decoder = geminiAdapter.text.createStreamDecoder(request);
    const events: IrStreamEvent[] = [...lines.flatMap((line) => decoder.push(undefined, line)), ...decoder.end()];
    const encoder = responsesFormat.createStreamEncoder({ requestId: 'req_1', model: 'public-model', request });
    const sse = events.map((event) => encoder.encode(event)).join('');
    const response = await sdkAnswering(sse, 'text/event-stream').responses.stream({ model: 'public-model', input: firstInput }).finalResponse();
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    const parts = nextTurnModelParts(response.output);
    expect(signature).toBeDefined();
    expect(parts.find((part) => part.functionCall !== undefined)?.thoughtSignature).toBe(signature);
    expect(JSON.stringify(parts)).not.toContain('skip_thought_signature_validator');
  });
});
