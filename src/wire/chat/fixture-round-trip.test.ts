/**
 * Both directions of the chat wire format together: recorded upstream streams are decoded by the
 * OpenAI chat provider (providers/openai/chat/) and re-encoded by the chat client format, and the
 * official `openai` SDK must accumulate the result into the same message. (Lives under wire/
 * because it is the one place allowed to exercise formats/ and providers/ side by side.)
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { chatFormat } from '../../formats/chat/index.js';
import type { EncodeContext } from '../../formats/client-format.js';
import type { IrRequest } from '../../ir/index.js';
import { createOpenAIChatAdapter } from '../../providers/openai/openai-adapters.js';
import { clientAnswering } from './client-answering.test-support.js';
import { chatStreamFixtures } from './chat-fixtures.test-support.js';
import { fixtureChunks, readJsonFixture } from '../../../test/support/fixtures.js';

const adapter = createOpenAIChatAdapter('openai-compatible');

function contextFor(includeUsage: boolean): EncodeContext {
  const request: IrRequest = chatFormat.decodeRequest({
    model: 'public-model',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
    ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
  });
  return { requestId: 'req_1', model: 'public-model', request };
}

function reencode(chunksFile: string, context: EncodeContext): string {
  const decoder = adapter.text.createStreamDecoder(context.request);
  const encoder = chatFormat.createStreamEncoder(context);
  const events = [...fixtureChunks(chunksFile).flatMap((line) => decoder.push(undefined, line)), ...decoder.push(undefined, '[DONE]'), ...decoder.end()];
  return events.map((event) => encoder.encode(event)).join('');
}

async function sdkAccumulate(sse: string): Promise<OpenAI.ChatCompletion> {
  const stream = clientAnswering(sse, 'text/event-stream').chat.completions.stream({ model: 'public-model', messages: [{ role: 'user', content: 'hi' }] });
  return stream.finalChatCompletion();
}

describe('chat round trip through the openai SDK', () => {
  for (const fixture of chatStreamFixtures) {
    it(`the SDK stream helper accumulates the re-encoded ${fixture.name} stream`, async () => {
      const context = contextFor(true);
      const sse = reencode(fixture.chunks, context);
      const completion = await sdkAccumulate(sse);
      const message = completion.choices[0]?.message;
      const decoded = (() => {
        const decoder = adapter.text.createStreamDecoder(context.request);
        return [...fixtureChunks(fixture.chunks).flatMap((line) => decoder.push(undefined, line)), ...decoder.push(undefined, '[DONE]')];
      })();
      const text = decoded.flatMap((event) => (event.type === 'block-delta' && event.delta.kind === 'text' ? [event.delta.text] : [])).join('');
      expect(message?.content ?? '').toBe(text);
      expect(completion.id.startsWith('chatcmpl-')).toBe(true);
      expect(completion.model).toBe('public-model');
      if (fixture.body !== undefined) {
        const reference = adapter.text.decodeResponse(readJsonFixture(fixture.body), context.request);
        const calls = reference.content.filter((part) => part.type === 'tool-call');
        expect((message?.tool_calls ?? []).map((call) => (call.type === 'function' ? [call.function.name, JSON.parse(call.function.arguments)] : []))).toEqual(
          calls.map((call) => [call.name, JSON.parse(call.arguments)]),
        );
        expect(completion.choices[0]?.finish_reason).toBe(fixture.name === 'openai text' ? 'stop' : 'tool_calls');
      }
      expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    });
  }

  it('keeps the streamed tool call ids and the usage figures through the round trip', async () => {
    const completion = await sdkAccumulate(reencode('openai-compatible/chat/deepseek-tool-call.chunks.txt', contextFor(true)));
    expect(completion.choices[0]?.message.tool_calls?.[0]?.id).toBe('call_00_ioIn7yN9p1ZOMNpDLwd4MgAF');
    expect(completion.usage).toMatchObject({ prompt_tokens: 339, completion_tokens: 83, prompt_tokens_details: { cached_tokens: 320 }, completion_tokens_details: { reasoning_tokens: 39 } });
  });

  it('sends no usage chunk unless the client asked for it, and always ends with [DONE]', () => {
    const sse = reencode('openai/chat/openai-text.chunks.txt', contextFor(false));
    expect(sse).not.toContain('"usage"');
    expect(sse.endsWith('data: [DONE]\n\n')).toBe(true);
    const withUsage = reencode('openai/chat/openai-text.chunks.txt', contextFor(true));
    const frames = withUsage.split('\n\n').filter((frame) => frame !== '');
    expect(frames.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(frames.at(-2)?.slice('data: '.length) ?? '')).toMatchObject({ choices: [], usage: { prompt_tokens: 16, completion_tokens: 300, total_tokens: 316 } });
  });

  it('the SDK reads a re-encoded non-streamed response', async () => {
    const context = contextFor(false);
    const response = adapter.text.decodeResponse(readJsonFixture('openai-compatible/chat/deepseek-tool-call.json'), context.request);
    const body = JSON.stringify(chatFormat.encodeResponse(response, { ...context, request: { ...context.request, stream: false } }));
    const completion = await clientAnswering(body, 'application/json').chat.completions.create({ model: 'public-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]?.message.tool_calls?.[0]).toEqual({ id: 'call_00_9V0vrf86Pc9aelHCJMZqnJBo', type: 'function', function: { name: 'weather', arguments: '{"location": "San Francisco"}' } });
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.usage?.total_tokens).toBe(431);
  });

  it('the SDK raises the in-stream error the encoder writes', async () => {
    const context = contextFor(true);
    const decoder = adapter.text.createStreamDecoder(context.request);
    const encoder = chatFormat.createStreamEncoder(context);
    const [first] = fixtureChunks('openai/chat/openai-text.chunks.txt');
    const events = [...decoder.push(undefined, first ?? ''), ...decoder.push(undefined, '{"error":{"message":"Overloaded","type":"server_error"}}')];
    const sse = events.map((event) => encoder.encode(event)).join('');
    expect(sse).not.toContain('[DONE]');
    await expect(sdkAccumulate(sse)).rejects.toThrow(/Overloaded/);
  });
});
