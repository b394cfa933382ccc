import Anthropic from '@anthropic-ai/sdk';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { startSimulator, type SimulatorHandle } from '../../src/sim/index.js';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { fixtureChunks, sseFromChunks } from '../support/fixtures.js';
import { caseClosedEarlyAt, pacedStreams, startScriptedUpstream, type PacedStream, type ScriptedUpstream } from '../support/scripted-upstream/index.js';
import { splitSse } from '../support/sse.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

/**
 * A client that stops reading a stream before its usage event (at the finish chunk, at the last
 * text event, at the block's stop) has the whole answer, or part of it. Whatever the format and
 * whether the stream is passed through or translated, its ledger entry charges at least the
 * output it received (counted here with the o200k tokenizer), never output 0: with the
 * upstream's own usage when it comes within the wait after the client left, else counted by the
 * gateway and marked estimated — and then the upstream call is stopped.
 */

/** Recorded streams, replayed event by event; a long chat answer is cut to its first 24 deltas, its finish and usage. */
const chatChunks = fixtureChunks('openai/chat/openai-text.chunks.txt');
const chatStream = splitSse(sseFromChunks([...chatChunks.slice(0, 25), ...chatChunks.slice(-2)], 'data', true));
const anthropicStream = splitSse(sseFromChunks(fixtureChunks('anthropic/messages/anthropic-text.chunks.txt'), 'named'));
const responsesStream = splitSse(sseFromChunks(fixtureChunks('openai/responses/azure-text.1.chunks.txt'), 'named'));

/**
 * A Responses stream whose opening events echo long instructions, as Codex's do (tens of KB in
 * response.created and response.in_progress): the text it carries is a small share of its bytes.
 */
const longInstructions = 'Follow the repository conventions closely. '.repeat(1_000);
const echoingResponsesStream = responsesStream.map((event) =>
  /^event: response\.(created|in_progress)\n/.test(event) ? event.replace('"instructions":null', `"instructions":${JSON.stringify(longInstructions)}`) : event,
);

/**
 * A Gemini stream: text in several chunks, cumulative usage, and the last chunk's finish reason
 * with the final figures. Gemini has no terminating event: the answer ends when the body does.
 */
const geminiText = ['There ', 'are ', 'three ', '"r"s ', 'in ', 'the ', 'word ', 'strawberry', ', ', 'as ', 'spelt ', 'out ', 'here.'];
const geminiChunk = (text: string, output: number, finish?: string): string =>
  JSON.stringify({
    candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0, ...(finish === undefined ? {} : { finishReason: finish }) }],
    usageMetadata: { promptTokenCount: 9, candidatesTokenCount: output, totalTokenCount: 9 + output + 185, thoughtsTokenCount: 185 },
    modelVersion: 'gemini-upstream',
    responseId: 'gemini-response-1',
  });
const geminiStream = splitSse(sseFromChunks([...geminiText.map((text, index) => geminiChunk(text, 2 * (index + 1))), geminiChunk('', 40, 'STOP')], 'data'));

/** The tails that state usage: chat's usage chunk and [DONE], Anthropic's message_delta and message_stop, Responses' response.completed. */
const streams: Record<string, PacedStream> = {
  '/v1/chat/completions': { events: chatStream, usageTailAt: chatStream.length - 2 },
  '/v1/messages': { events: anthropicStream, usageTailAt: anthropicStream.length - 2 },
  '/v1/responses': { events: responsesStream, usageTailAt: responsesStream.length - 1 },
  // A compatible server that never states usage: the recorded chat stream without its usage chunk.
  '/no-usage/v1/chat/completions': { events: [...chatStream.slice(0, -2), chatStream.at(-1)!], usageTailAt: chatStream.length - 1 },
  '/echo/v1/responses': { events: echoingResponsesStream, usageTailAt: echoingResponsesStream.length - 1 },
  '/v1beta/models/gemini-upstream:streamGenerateContent?alt=sse': { events: geminiStream, usageTailAt: geminiStream.length - 1 },
};

/** What each recording reports: output tokens, and input as the ledger's uncached bucket. */
const recordedUsage = {
  chat: { inputUncached: 16, output: 300 },
  anthropic: { inputUncached: 12, output: 30 },
  responses: { inputUncached: 11, output: 11 },
};

/** 10 USD per million output tokens: 10,000 nano-USD a token. */
const outputNanoUsdPerToken = 10_000n;
const price = { input_per_mtok: '1.00', output_per_mtok: '10.00', effective_from: '2026-01-01' };
/** The gateway's default wait for usage after a client left. */
const usageWaitMs = 2_000;

let upstream: ScriptedUpstream;
/** A compatible chat server that answers whole, without usage. */
let wholeAnswers: ScriptedUpstream;
let simulator: SimulatorHandle;
let gateway: TestGateway;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  upstream = await startScriptedUpstream({ reply: pacedStreams(streams, 15) });
  simulator = await startSimulator({ port: 0 });
  wholeAnswers = await startScriptedUpstream();
  wholeAnswers.reply({
    body: JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'whole-upstream', choices: [{ index: 0, message: { role: 'assistant', content: 'A whole answer without usage.' }, finish_reason: 'stop' }] }),
  });
  const base = defaultConfig({}) as { providers: Record<string, unknown>; models: Record<string, unknown>[] };
  const simImage = base.models.find((model) => model.id === 'sim-image')!;
  gateway = await startTestGateway({
    providers: {
      ...base.providers,
      'watched-sim': { type: 'openai', base_url: `${simulator.url}/v1` },
      openai: { type: 'openai', base_url: `${upstream.url}/v1`, api_key: 'k' },
      anthropic: { type: 'anthropic', base_url: upstream.url, api_key: 'k' },
      compatible: { type: 'openai-compatible', base_url: `${upstream.url}/v1` },
      'no-usage': { type: 'openai-compatible', base_url: `${upstream.url}/no-usage/v1` },
      codex: { type: 'openai', base_url: `${upstream.url}/echo/v1`, api_key: 'k' },
      gemini: { type: 'gemini', base_url: upstream.url, api_key: 'k' },
      'whole-no-usage': { type: 'openai-compatible', base_url: `${wholeAnswers.url}/v1` },
    },
    models: [
      ...base.models,
      // The simulator's image model on a simulator this test can watch, to see its stream closed.
      { ...simImage, id: 'watched-image', legacy_aliases: [], routes: [{ provider: 'watched-sim', model: 'sim-image' }] },
      // Gemini has no image stream: the gateway plays its whole answer out as previews and the final image.
      { id: 'gemini-image', output_modality: 'image', routes: [{ provider: 'sim-gemini', model: 'gemini-2.5-flash-image' }], image: { streaming: true } },
      { id: 'gpt', routes: [{ provider: 'openai', model: 'gpt-upstream' }], price },
      { id: 'claude', routes: [{ provider: 'anthropic', model: 'claude-upstream' }], price },
      { id: 'chat-only', routes: [{ provider: 'compatible', model: 'compatible-upstream' }], price },
      { id: 'no-usage', routes: [{ provider: 'no-usage', model: 'silent-upstream' }], price },
      { id: 'codex', routes: [{ provider: 'codex', model: 'gpt-upstream' }], price },
      { id: 'gemini', routes: [{ provider: 'gemini', model: 'gemini-upstream' }], price },
      { id: 'whole-no-usage', routes: [{ provider: 'whole-no-usage', model: 'whole-upstream' }], price },
    ],
  });
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'k', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'k', maxRetries: 0 });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
  await wholeAnswers?.close();
  await simulator?.close();
});

type Boundary = 'first-delta' | 'mid-content' | 'finish';

interface Received {
  readonly requestId: string;
  readonly text: string;
  readonly leftAt: number;
}

/** Reads a chat stream with the `openai` SDK and leaves it at the boundary. */
async function chatClient(model: string, prompt: string, boundary: Boundary): Promise<Received> {
  const { data: stream, response } = await openai.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: prompt }] }).withResponse();
  let text = '';
  let deltas = 0;
  for await (const chunk of stream) {
    const choice = chunk.choices[0];
    const delta = choice?.delta.content ?? '';
    text += delta;
    if (delta !== '') deltas += 1;
    if (boundary === 'first-delta' && deltas === 1) break;
    if (boundary === 'mid-content' && deltas === 3) break;
    if (boundary === 'finish' && (choice?.finish_reason ?? null) !== null) break;
  }
  return { requestId: response.headers.get('x-request-id')!, text, leftAt: Date.now() };
}

/** Reads a Responses stream with the `openai` SDK and leaves it at the boundary (`mid-content`: the text's done event; `finish`: the item's). */
async function responsesClient(model: string, prompt: string, boundary: Boundary): Promise<Received> {
  const { data: stream, response } = await openai.responses.create({ model, stream: true, store: false, input: prompt }).withResponse();
  let text = '';
  for await (const event of stream) {
    if (event.type === 'response.output_text.delta') text += event.delta;
    if (boundary === 'first-delta' && event.type === 'response.output_text.delta') break;
    if (boundary === 'mid-content' && event.type === 'response.output_text.done') break;
    if (boundary === 'finish' && event.type === 'response.output_item.done' && event.item.type === 'message') break;
  }
  return { requestId: response.headers.get('x-request-id')!, text, leftAt: Date.now() };
}

/** Reads a Messages stream with `@anthropic-ai/sdk` and leaves it at the boundary (`finish`: content_block_stop). */
async function messagesClient(model: string, prompt: string, boundary: Boundary): Promise<Received> {
  const { data: stream, response } = await anthropic.messages.create({ model, max_tokens: 1_000, stream: true, messages: [{ role: 'user', content: prompt }] }).withResponse();
  let text = '';
  let deltas = 0;
  for await (const event of stream) {
    if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
      text += event.delta.text;
      deltas += 1;
    }
    if (boundary === 'first-delta' && deltas === 1) break;
    if (boundary === 'mid-content' && deltas === 3) break;
    if (boundary === 'finish' && event.type === 'content_block_stop') break;
  }
  return { requestId: response.headers.get('x-request-id')!, text, leftAt: Date.now() };
}

interface Pairing {
  readonly name: string;
  readonly client: (model: string, prompt: string, boundary: Boundary) => Promise<Received>;
  readonly model: string;
  readonly recorded: keyof typeof recordedUsage;
  /** Boundaries a client can reach only with the usage (its format sends them with the usage event). */
  readonly onlyWithUsage?: readonly Boundary[];
}

const pairings: Pairing[] = [
  { name: 'chat → OpenAI chat (passthrough)', client: chatClient, model: 'gpt', recorded: 'chat' },
  // A chat client of an Anthropic upstream gets finish_reason from message_delta, which carries the usage.
  { name: 'chat → Anthropic (translated)', client: chatClient, model: 'claude', recorded: 'anthropic', onlyWithUsage: ['finish'] },
  { name: 'Responses → OpenAI Responses (passthrough)', client: responsesClient, model: 'gpt', recorded: 'responses' },
  { name: 'Responses → Anthropic (translated)', client: responsesClient, model: 'claude', recorded: 'anthropic' },
  { name: 'Messages → Anthropic (passthrough)', client: messagesClient, model: 'claude', recorded: 'anthropic' },
  { name: 'Messages → OpenAI-compatible chat (translated)', client: messagesClient, model: 'chat-only', recorded: 'chat' },
];

async function ledgerEntryOf(requestId: string): Promise<LedgerEntry> {
  const deadline = Date.now() + usageWaitMs + 5_000;
  for (;;) {
    await gateway.services.ledger.flush();
    const entry = (await gateway.services.storage.ledger.list({ limit: 1_000 })).find((candidate) => candidate.requestId === requestId);
    if (entry !== undefined) return entry;
    if (Date.now() > deadline) throw new Error(`no ledger entry for ${requestId}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** When the upstream saw the call's connection closed (its close reaches the upstream just after the entry is written). */
async function closedAtUpstream(caseId: string): Promise<number | undefined> {
  const deadline = Date.now() + 1_500;
  while (caseClosedEarlyAt(upstream.requests, caseId) === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return caseClosedEarlyAt(upstream.requests, caseId);
}

const cases = pairings.flatMap((pairing) =>
  (['first-delta', 'mid-content', 'finish'] as const).flatMap((boundary) =>
    (['usage-follows', 'usage-withheld'] as const)
      .filter((mode) => mode === 'usage-follows' || !(pairing.onlyWithUsage ?? []).includes(boundary))
      .map((mode) => ({ pairing, boundary, mode })),
  ),
);

describe('a client that leaves a stream before its usage', () => {
  for (const [index, { pairing, boundary, mode }] of cases.entries()) {
    it.concurrent(`is charged for what it received: ${pairing.name}, left at ${boundary}, ${mode}`, async () => {
      const caseId = `c${index}`;
      const received = await pairing.client(pairing.model, `case=${caseId} ${mode === 'usage-withheld' ? 'withhold' : ''} tell me about it`, boundary);
      const receivedTokens = countTokens(received.text);
      expect(receivedTokens).toBeGreaterThan(0);

      const entry = await ledgerEntryOf(received.requestId);
      expect(entry.output).toBeGreaterThan(0);
      expect(entry.output + entry.reasoning).toBeGreaterThanOrEqual(receivedTokens);
      expect(entry.costNanoUsd).toBeGreaterThanOrEqual(BigInt(receivedTokens) * outputNanoUsdPerToken);

      if (mode === 'usage-follows') {
        // The upstream's own figures, read after the client left: exact, not estimated.
        expect(entry).toMatchObject({ usageEstimated: false, ...recordedUsage[pairing.recorded] });
      } else {
        expect(entry).toMatchObject({ status: 499, usageEstimated: true });
        // The upstream that never states its usage is let go once the wait is over.
        const closedAt = await closedAtUpstream(caseId);
        expect(closedAt).toBeDefined();
        expect(closedAt! - received.leftAt).toBeLessThan(usageWaitMs + 1_500);
      }
    }, 30_000);
  }
});

describe('a stream from a server that never states usage', () => {
  it('is charged the output it delivered, counted, not output 0', async () => {
    const { data: stream, response } = await openai.chat.completions.create({ model: 'no-usage', stream: true, messages: [{ role: 'user', content: 'case=silent tell me' }] }).withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    const entry = await ledgerEntryOf(response.headers.get('x-request-id')!);
    expect(entry).toMatchObject({ status: 200, usageEstimated: true });
    expect(entry.output).toBeGreaterThanOrEqual(countTokens(text));
    expect(countTokens(text)).toBeGreaterThan(0);
  });
});

describe('a translated stream from a server that never states usage', () => {
  it('is charged the output it delivered and an estimated input, never $0', async () => {
    const { data: stream, response } = await anthropic.messages.create({ model: 'no-usage', max_tokens: 1_000, stream: true, messages: [{ role: 'user', content: 'case=silent-translated tell me' }] }).withResponse();
    let text = '';
    for await (const event of stream) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    expect(countTokens(text)).toBeGreaterThan(0);
    const entry = await ledgerEntryOf(response.headers.get('x-request-id')!);
    expect(entry).toMatchObject({ status: 200, usageEstimated: true });
    expect(entry.inputUncached).toBeGreaterThan(0);
    expect(entry.output).toBeGreaterThanOrEqual(countTokens(text));
    expect(entry.costNanoUsd).toBeGreaterThanOrEqual(BigInt(countTokens(text)) * outputNanoUsdPerToken);
  });
});

describe('a whole translated answer from a server that never states usage', () => {
  it('is charged an estimated input, never $0', async () => {
    const { response } = await anthropic.messages.create({ model: 'whole-no-usage', max_tokens: 100, messages: [{ role: 'user', content: 'tell me' }] }).withResponse();
    const entry = await ledgerEntryOf(response.headers.get('x-request-id')!);
    expect(entry).toMatchObject({ status: 200, usageEstimated: true });
    expect(entry.inputUncached).toBeGreaterThan(0);
    expect(entry.costNanoUsd).toBeGreaterThan(0n);
  });
});

describe('a passed-through Responses stream whose opening events echo long instructions', () => {
  it('is charged at least the output the client received when it leaves and the usage never comes', async () => {
    const received = await responsesClient('codex', 'case=echo withhold tell me about it', 'mid-content');
    const receivedTokens = countTokens(received.text);
    expect(receivedTokens).toBeGreaterThan(0);
    const entry = await ledgerEntryOf(received.requestId);
    expect(entry).toMatchObject({ status: 499, usageEstimated: true });
    expect(entry.output).toBeGreaterThanOrEqual(receivedTokens);
    // Counted from the text events only: the echoed instructions are not output.
    expect(entry.output).toBeLessThan(receivedTokens * 3);
  }, 30_000);
});

describe('a translated Gemini stream the client leaves before its end', () => {
  it('is charged the usage Gemini states in its last chunk, read after the client left, not an estimate', async () => {
    const received = await messagesClient('gemini', 'case=gemini-left tell me about it', 'first-delta');
    expect(countTokens(received.text)).toBeGreaterThan(0);
    const entry = await ledgerEntryOf(received.requestId);
    expect(entry).toMatchObject({ status: 499, usageEstimated: false, inputUncached: 9, output: 40, reasoning: 185 });
  }, 30_000);
});

/** The price of one low-quality square image of the simulator's model, and of one Gemini image, in nano-USD. */
const lowSquareNanoUsd = 10_000_000n;
const geminiImageNanoUsd = 39_000_000n;

/** Asks for a streamed image with three partials and leaves after the `leaveAfter`th. */
async function leaveAfterPartial(
  leaveAfter: number,
  model: string,
  prompt: string,
  tier: { size: '1024x1024' | '1248x832'; quality?: 'low' },
): Promise<{ requestId: string; partials: number; completed: number; leftAt: number }> {
  const { data: stream, response } = await openai.images.generate({ model, prompt, stream: true, partial_images: 3, n: 1, ...tier } as OpenAI.ImageGenerateParamsStreaming).withResponse();
  let partials = 0;
  let completed = 0;
  for await (const event of stream) {
    if (event.type === 'image_generation.partial_image') partials += 1;
    if (event.type === 'image_generation.completed') completed += 1;
    if (partials === leaveAfter) break;
  }
  return { requestId: response.headers.get('x-request-id')!, partials, completed, leftAt: Date.now() };
}

describe('a client that leaves a streamed image after its partials', () => {
  it('is charged for the image when the upstream completes it within the wait', async () => {
    const left = await leaveAfterPartial(3, 'watched-image', 'A lighthouse [pace:300]', { size: '1024x1024', quality: 'low' });
    expect(left).toMatchObject({ partials: 3, completed: 0 });
    const entry = await ledgerEntryOf(left.requestId);
    expect(entry).toMatchObject({ model: 'watched-image', images: 1, costNanoUsd: lowSquareNanoUsd });
    // The completion read after the client left states the image's usage.
    expect(entry.output).toBeGreaterThan(0);
  });

  it('is charged for the partial at its tier when the completion does not come within the wait, and the upstream is stopped', async () => {
    const left = await leaveAfterPartial(3, 'watched-image', 'A lighthouse [pace:3000]', { size: '1024x1024', quality: 'low' });
    expect(left).toMatchObject({ partials: 3, completed: 0 });
    const entry = await ledgerEntryOf(left.requestId);
    expect(entry).toMatchObject({ model: 'watched-image', images: 1, costNanoUsd: lowSquareNanoUsd });
    while (simulator.activeStreams() > 0 && Date.now() - left.leftAt < usageWaitMs + 1_500) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(simulator.activeStreams()).toBe(0);
  }, 20_000);

  it('is charged for an image the gateway played out as previews (Gemini) once a preview was shown', async () => {
    const left = await leaveAfterPartial(1, 'gemini-image', 'A lighthouse at dawn', { size: '1248x832' });
    expect(left).toMatchObject({ partials: 1, completed: 0 });
    const entry = await ledgerEntryOf(left.requestId);
    expect(entry).toMatchObject({ model: 'gemini-image', images: 1, costNanoUsd: geminiImageNanoUsd });
  });
});
