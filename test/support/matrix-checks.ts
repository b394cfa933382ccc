import { expect } from 'vitest';
import type { FormatName } from '../../src/ir/format-name.js';
import { totalInputTokens, type IrResponse } from '../../src/ir/index.js';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { expectedAnswer, expectedUsage, type ClientAnswer, type ClientUsage } from './matrix-answers.js';
import { decodeExchange } from './matrix-decode.js';
import { isSimulator, type ReplySource } from './matrix-recordings.js';
import type { ReceivedRequest } from './scripted-upstream/index.js';

/** Facts read off the recording by hand: the decoded expectation must agree with them. */
export function checkAnchors(source: ReplySource, decoded: IrResponse): void {
  if (isSimulator(source)) return;
  const recording = source.recording;
  expect(totalInputTokens(decoded.usage), 'input tokens of the recording').toBe(recording.inputTokens);
  const toolNames = decoded.content.flatMap((part) => (part.type === 'tool-call' ? [part.name] : []));
  expect(toolNames, 'tool names of the recording').toEqual(recording.toolNames ?? []);
  if (recording.textIncludes !== undefined) {
    expect(decoded.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')).toContain(recording.textIncludes);
  }
}

/**
 * The JSON objects an upstream answered: an SSE stream's events or a JSON body. A binary answer
 * (Bedrock's event stream) gives none: it carries neither OpenAI's items nor a relayed usage.
 */
function answerPayloads(exchange: ReceivedRequest): unknown[] {
  const contentType = exchange.answer.contentType ?? '';
  if (contentType.startsWith('text/event-stream')) {
    return exchange.answer.body.split('\n').flatMap((line) => (line.startsWith('data: {') ? [JSON.parse(line.slice(6)) as unknown] : []));
  }
  return contentType.includes('json') ? [JSON.parse(exchange.answer.body) as unknown] : [];
}

/**
 * Passthrough relays the upstream's bytes, so the client sees the upstream's own usage figures
 * (xAI, for one, leaves reasoning out of completion_tokens, which the decoded IR adds back).
 */
export function relayedUsage(format: FormatName, exchange: ReceivedRequest): ClientUsage | undefined {
  if (format === 'messages') return undefined;
  let usage: Record<string, unknown> | undefined;
  for (const body of answerPayloads(exchange) as Record<string, unknown>[]) {
    const candidate = format === 'responses' && typeof body.response === 'object' ? (body.response as Record<string, unknown>).usage : body.usage;
    if (typeof candidate === 'object' && candidate !== null) usage = candidate as Record<string, unknown>;
  }
  if (usage === undefined) return undefined;
  return format === 'chat'
    ? { input: Number(usage.prompt_tokens), output: Number(usage.completion_tokens) }
    : { input: Number(usage.input_tokens), output: Number(usage.output_tokens) };
}

/**
 * OpenAI re-encrypts reasoning each time it serialises an item, so one Responses stream carries
 * several valid `encrypted_content` values for the same item (output_item.added, output_item.done,
 * response.completed). Each value is mapped to a label naming its item, so "the same blob" means
 * "a blob the upstream gave for that item".
 */
export function blobAliases(exchange: ReceivedRequest): Map<string, string> {
  const aliases = new Map<string, string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      if (record.type === 'reasoning' && typeof record.encrypted_content === 'string' && typeof record.id === 'string') {
        aliases.set(record.encrypted_content, `<encrypted reasoning of ${record.id}>`);
      }
      Object.values(record).forEach(visit);
    }
  };
  answerPayloads(exchange).forEach(visit);
  return aliases;
}

/** A blob value (possibly tagged for another format) with every known alias replaced by its label. */
export function canonicalBlob(value: string, aliases: ReadonlyMap<string, string>): string {
  let canonical = value;
  for (const [alias, label] of aliases) canonical = canonical.replaceAll(alias, label);
  return canonical;
}

function canonicalAnswer(answer: ClientAnswer, aliases: ReadonlyMap<string, string>): ClientAnswer {
  return { ...answer, reasoning: answer.reasoning.map((entry) => (entry.blob === undefined ? entry : { ...entry, blob: canonicalBlob(entry.blob, aliases) })) };
}

/**
 * The client's answer against what the upstream said in `exchange`, decoded by the provider.
 * Passed-through answers carry the upstream's own usage figures (see relayedUsage).
 */
export function checkAnswer(format: FormatName, answer: ClientAnswer, exchange: ReceivedRequest, passthrough: boolean): IrResponse {
  const decoded = decodeExchange(exchange);
  const aliases = blobAliases(exchange);
  const actual = canonicalAnswer(answer, aliases);
  const expected = canonicalAnswer(expectedAnswer(format, decoded), aliases);
  expect(actual.text, 'text').toBe(expected.text);
  expect(actual.toolCalls, 'tool calls (id, name, parsed arguments)').toEqual(expected.toolCalls);
  for (const call of actual.toolCalls) expect(call.id, 'tool call id').toMatch(/\S/);
  expect(actual.reasoning, 'reasoning and its opaque value').toEqual(expected.reasoning);
  expect(actual.finish, 'finish reason').toBe(expected.finish);
  const relayed = passthrough ? relayedUsage(format, exchange) : undefined;
  expect(actual.usage, 'usage in the format convention').toEqual(relayed ?? expectedUsage(format, decoded));
  expect(actual.usage.input, 'input tokens').toBeGreaterThan(0);
  expect(actual.usage.output, 'output tokens').toBeGreaterThan(0);
  return decoded;
}

/** The ledger holds exactly the decoded usage, marked as reported by the upstream. */
export function checkLedger(entry: LedgerEntry, decoded: IrResponse): void {
  expect(entry.usageEstimated, 'usage estimated').toBe(false);
  expect(entry.status).toBe(200);
  const { inputUncached, cacheRead, cacheWrite, output, reasoning, images, videoSeconds } = entry;
  const usage = decoded.usage;
  // A text call delivers no images and no video, whatever the upstream.
  expect({ inputUncached, cacheRead, cacheWrite, output, reasoning, images, videoSeconds }, 'ledger buckets').toEqual({
    inputUncached: usage.inputUncached,
    cacheRead: usage.cacheRead,
    cacheWrite: usage.cacheWrite,
    output: usage.output,
    reasoning: usage.reasoning,
    images: 0,
    videoSeconds: 0,
  });
}
