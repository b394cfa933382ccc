import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totalInputTokens } from '../../src/ir/index.js';
import { startMatrixHarness, type MatrixHarness } from '../support/matrix-harness.js';
import { replyFor, wireFor, wireScenarios, type Recording, type UpstreamKind } from '../support/matrix-recordings.js';

/**
 * Clients such as LangChain's ChatAnthropic read input tokens only from `message_start`, where
 * Anthropic always states them. On translated routes the upstream states them at the end (chat,
 * Responses, Converse) or in its first chunk (Gemini, on its own API or Vertex AI); `message_start` must carry a real count all the same,
 * while message_delta and the ledger keep the upstream's own figure.
 */
const translatedKinds: readonly UpstreamKind[] = ['openai-compatible', 'openai', 'gemini', 'bedrock-converse', 'vertex-gemini'];

let harness: MatrixHarness;
beforeAll(async () => {
  harness = await startMatrixHarness();
});
afterAll(async () => {
  await harness.close();
});

function textRecording(kind: UpstreamKind): Recording {
  const source = wireScenarios[wireFor('messages', kind)].text.stream;
  if (!('recording' in source)) throw new Error(`no text recording for ${kind}`);
  return source.recording;
}

describe.each(translatedKinds)('Messages client streaming from a %s upstream', (kind) => {
  it('states input tokens in message_start, and the upstream\'s count in message_delta and the ledger', async () => {
    const recording = textRecording(kind);
    harness.upstreams[kind].serve(replyFor(wireFor('messages', kind), { recording }, true));
    const params = {
      model: harness.modelFor(kind),
      max_tokens: 1024,
      system: 'You answer questions about the weather.',
      messages: [{ role: 'user' as const, content: 'what is the weather in San Francisco?' }],
    };
    const events: Anthropic.MessageStreamEvent[] = [];
    const stream = harness.clients.anthropic.messages.stream(params);
    // A copy: the SDK makes message_start's message its snapshot and updates it in place.
    stream.on('streamEvent', (event) => events.push(structuredClone(event)));
    const message = await stream.finalMessage();
    const requestId = harness.clients.lastRequestId();

    const start = events.find((event) => event.type === 'message_start');
    const delta = events.find((event) => event.type === 'message_delta');
    const startInput = start?.type === 'message_start' ? start.message.usage.input_tokens : undefined;
    expect(startInput, 'message_start input_tokens').toBeGreaterThan(0);
    if (wireFor('messages', kind) === 'gemini') {
      expect(startInput, 'the first chunk\'s promptTokenCount').toBe(recording.inputTokens);
    } else {
      // The gateway's own count: the one count_tokens gives for the same request.
      const counted = await harness.clients.anthropic.messages.countTokens({ model: params.model, system: params.system, messages: params.messages });
      expect(startInput, 'the estimate count_tokens gives').toBe(counted.input_tokens);
    }
    expect(delta?.type === 'message_delta' ? delta.usage.input_tokens : undefined, 'message_delta input_tokens').toBe(recording.inputTokens);
    expect(message.usage.input_tokens).toBe(recording.inputTokens);

    const entry = await harness.ledgerEntry(requestId);
    expect(entry.usageEstimated).toBe(false);
    expect(totalInputTokens(entry), 'ledger input').toBe(recording.inputTokens);
  });
});
