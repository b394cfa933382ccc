import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormatName } from '../../src/ir/format-name.js';
import type { BlobProvider, IrResponse } from '../../src/ir/index.js';
import { blobAliases, canonicalBlob, checkAnchors, checkAnswer, checkLedger } from './matrix-checks.js';
import { driverFor, type FormatDriver, type TurnResult } from './matrix-clients.js';
import { decodeExchange, wireOfPath } from './matrix-decode.js';
import { startMatrixHarness, type MatrixHarness } from './matrix-harness.js';
import { readUpstreamHistory } from './matrix-native-shapes.js';
import {
  isPassthrough,
  promptOf,
  reasoningRoundTripScenarios,
  replyFor,
  sourceName,
  thoughtsScenario,
  upstreamKinds,
  wireFor,
  wireScenarios,
  type ReplySource,
  type UpstreamKind,
  type UpstreamWire,
} from './matrix-recordings.js';
import type { ReceivedRequest } from './scripted-upstream/index.js';

export interface MatrixCell {
  readonly kind: UpstreamKind;
  readonly scenario: string;
  readonly stream: boolean;
  readonly source: ReplySource;
  readonly wire: UpstreamWire;
  readonly path: 'passthrough' | 'translated';
  readonly via: string;
}

/** Cells expected to fail because of a gateway bug: cell key → the cause (file, function). */
export type KnownFailures = Readonly<Record<string, string>>;

export function cellKey(format: FormatName, kind: UpstreamKind, scenario: string, stream: boolean): string {
  return `${format} ${kind} ${scenario} ${stream ? 'stream' : 'non-stream'}`;
}

/** Every (upstream kind × scenario × stream) cell for one client format. */
export function matrixCells(format: FormatName): MatrixCell[] {
  const cells: MatrixCell[] = [];
  for (const kind of upstreamKinds) {
    const wire = wireFor(format, kind);
    const scenarios = { ...wireScenarios[wire], ...(wire === 'gemini' ? { 'visible thoughts': thoughtsScenario } : {}) };
    for (const [scenario, sources] of Object.entries(scenarios)) {
      for (const stream of [true, false]) {
        const source = stream ? sources.stream : sources.nonStream;
        cells.push({ kind, scenario, stream, source, wire, path: isPassthrough(format, kind) ? 'passthrough' : 'translated', via: sourceName(source) });
      }
    }
  }
  return cells;
}

export const roundTripModes = upstreamKinds.flatMap((kind) => [true, false].map((stream) => ({ kind, stream })));

const nativeProvider: Record<UpstreamWire, BlobProvider | undefined> = { chat: undefined, responses: 'openai', anthropic: 'anthropic', gemini: 'gemini', converse: 'bedrock' };

/** Every opaque value of the upstream's own making in an answer, whatever part carries it. */
function nativeBlobs(wire: UpstreamWire, response: IrResponse): string[] {
  return response.content.flatMap((part) => (part.blob !== undefined && part.blob.provider === nativeProvider[wire] ? [part.blob.value] : []));
}

/** Registers the whole matrix for one client format: single turns, round trips, blob isolation. */
export function defineFormatMatrix(format: FormatName, knownFailures: KnownFailures): void {
  let harness: MatrixHarness;
  let driver: FormatDriver;
  beforeAll(async () => {
    harness = await startMatrixHarness();
    driver = driverFor(format, harness.clients);
  });
  afterAll(async () => {
    await harness.close();
  });

  const test = (key: string): typeof it.fails => (knownFailures[key] === undefined ? it : it.fails);

  /** One call; returns the turn and the one upstream exchange it caused. */
  async function turn(kind: UpstreamKind, conversation: readonly unknown[], stream: boolean, reasoning: boolean): Promise<{ result: TurnResult; exchange: ReceivedRequest }> {
    const upstream = harness.upstreams[kind];
    const before = upstream.requests.length;
    const result = await driver.run(conversation, { model: harness.modelFor(kind), stream, reasoning });
    expect(upstream.requests.length, 'upstream calls').toBe(before + 1);
    return { result, exchange: upstream.requests[before]! };
  }

  describe.each(matrixCells(format))(`${format} client × $kind upstream: $scenario, stream $stream ($path, $via)`, (cell) => {
    const cellTest = test(cellKey(format, cell.kind, cell.scenario, cell.stream));
    cellTest('delivers what the upstream said, with usage in the format convention and a ledger entry', async () => {
      harness.upstreams[cell.kind].serve(replyFor(cell.wire, cell.source, cell.stream));
      const { result, exchange } = await turn(cell.kind, driver.start(promptOf(cell.source)), cell.stream, cell.scenario === 'reasoning' || cell.scenario === 'visible thoughts');
      expect(wireOfPath(exchange.path)).toBe(cell.wire);
      const decoded = checkAnswer(format, result.answer, exchange, cell.path === 'passthrough');
      checkAnchors(cell.source, decoded);
      if (cell.scenario === 'parallel') expect(result.answer.toolCalls.length, 'parallel calls').toBeGreaterThan(1);
      if (cell.scenario === 'visible thoughts') expect(result.answer.reasoning.length, 'reasoning shown').toBeGreaterThan(0);
      checkLedger(await harness.ledgerEntry(result.requestId), decoded);
    });
  });

  describe.each(roundTripModes)(`${format} client × $kind upstream: tool round trip, stream $stream`, ({ kind, stream }) => {
    test(cellKey(format, kind, 'tool round trip', stream))('sends the tool result in the upstream shape, referencing the call from turn one', async () => {
      const wire = wireFor(format, kind);
      const sources = wireScenarios[wire];
      const first = stream ? sources.tool.stream : sources.tool.nonStream;
      const second = stream ? sources.text.stream : sources.text.nonStream;
      harness.upstreams[kind].serve(replyFor(wire, first, stream), replyFor(wire, second, stream));
      const opening = driver.start(promptOf(first));
      const one = await turn(kind, opening, stream, false);
      const calls = one.result.answer.toolCalls;
      expect(calls.length).toBeGreaterThan(0);
      const two = await turn(kind, driver.continueWith(opening, one.result, 'sunny, 18 degrees', 'thanks'), stream, false);
      checkAnswer(format, two.result.answer, two.exchange, isPassthrough(format, kind));
      const history = readUpstreamHistory(wire, two.exchange.body);
      // Gemini matches results to calls by function name (its Developer API mints no call ids).
      const echoed = calls.map((call) => ({ id: call.id, name: call.name }));
      const results = calls.map((call) => (wire === 'gemini' ? { callId: call.id, name: call.name } : { callId: call.id }));
      expect(history.toolCalls, 'calls echoed in the assistant turn').toEqual(echoed.map((call) => expect.objectContaining(call)));
      expect(history.toolResults, 'tool results in the native shape').toEqual(results.map((result) => expect.objectContaining(result)));
    });
  });

  describe.each(roundTripModes)(`${format} client × $kind upstream: reasoning round trip, stream $stream`, ({ kind, stream }) => {
    const wire = wireFor(format, kind);
    const first = stream ? reasoningRoundTripScenarios[wire].stream : reasoningRoundTripScenarios[wire].nonStream;
    const title =
      format === 'chat'
        ? 'sends no reasoning blob back (chat has no slot for one), and no unsigned or foreign reasoning'
        : 'gives the upstream its own reasoning blob back in its native slot, and nothing foreign';
    test(cellKey(format, kind, 'reasoning round trip', stream))(`${title} (${sourceName(first)})`, async () => {
      const second = stream ? wireScenarios[wire].text.stream : wireScenarios[wire].text.nonStream;
      harness.upstreams[kind].serve(replyFor(wire, first, stream), replyFor(wire, second, stream));
      const opening = driver.start(promptOf(first));
      const one = await turn(kind, opening, stream, true);
      const blobs = nativeBlobs(wire, decodeExchange(one.exchange));
      const two = await turn(kind, driver.continueWith(opening, one.result, 'sunny, 18 degrees', 'and tomorrow?'), stream, true);
      const history = readUpstreamHistory(wire, two.exchange.body);
      if (format === 'chat' || nativeProvider[wire] === undefined) expect(history.reasoningBlobs).toEqual([]);
      else {
        expect(blobs.length, 'the recording carries a blob').toBeGreaterThan(0);
        const aliases = blobAliases(one.exchange);
        expect(history.reasoningBlobs.map((blob) => canonicalBlob(blob, aliases))).toEqual(blobs.map((blob) => canonicalBlob(blob, aliases)));
        // The signature must be back on the call itself, not beside a call signed with the stand-in.
        expect(history.signatureStandIns, 'Gemini calls signed with the stand-in').toBe(0);
      }
      expect(history.unsignedThinking, 'thinking without a signature').toBe(0);
      expect(two.exchange.body).not.toContain('switchyard.v1.');
    });
  });

  if (format === 'chat') return;
  describe.each(isolationCases())(`${format} client: reasoning from $from, next turn to $to`, ({ from, to }) => {
    const fromWire = wireFor(format, from);
    const toWire = wireFor(format, to);
    const shared = nativeProvider[fromWire] === nativeProvider[toWire];
    const title = shared
      ? 'gives Claude\'s signed thinking back to Claude on the other platform, in its native slot'
      : 'never sends the first provider\'s blob to the second';
    test(cellKey(format, from, `blob isolation to ${to}`, true))(title, async () => {
      const first = reasoningRoundTripScenarios[fromWire].stream;
      harness.upstreams[from].serve(replyFor(fromWire, first, true));
      harness.upstreams[to].serve(replyFor(toWire, wireScenarios[toWire].text.stream, true));
      const opening = driver.start(promptOf(first));
      const one = await turn(from, opening, true, true);
      const blobs = nativeBlobs(fromWire, decodeExchange(one.exchange));
      expect(blobs.length).toBeGreaterThan(0);
      const two = await turn(to, driver.continueWith(opening, one.result, 'sunny, 18 degrees', 'and tomorrow?'), true, true);
      const history = readUpstreamHistory(toWire, two.exchange.body);
      if (shared) expect(history.reasoningBlobs, 'the signatures in thinking blocks').toEqual(blobs);
      else for (const blob of [...blobs, ...blobAliases(one.exchange).keys()]) expect(two.exchange.body).not.toContain(blob);
      expect(two.exchange.body).not.toContain('switchyard.v1.');
      expect(history.unsignedThinking).toBe(0);
    });
  });
}

/**
 * Reasoning from one provider, echoed by the client to a model on another: from OpenAI or Anthropic
 * to every other kind, and from every cloud platform's model back to OpenAI and Anthropic. A blob
 * is delivered only to its own provider (docs/compatibility.md): Claude's signed thinking is
 * Anthropic's wherever Claude runs, so it goes on between Anthropic and Claude on Bedrock or
 * Vertex; Converse's (Bedrock's) and Gemini's never reach OpenAI or Anthropic.
 * Azure is not a second provider here: its Responses blobs are OpenAI's own format, untagged, so
 * OpenAI's encrypted reasoning would reach it (docs/compatibility.md says so), and a body that is
 * translated for it goes to chat completions, not to the Responses wire this suite serves.
 */
function isolationCases(): { from: UpstreamKind; to: UpstreamKind }[] {
  const direct = ['openai', 'anthropic'] as const;
  const cloud = upstreamKinds.filter((kind) => kind.startsWith('bedrock-') || kind.startsWith('vertex-'));
  return [
    ...direct.flatMap((from) => upstreamKinds.filter((to) => to !== from && to !== 'azure').map((to) => ({ from, to }))),
    ...cloud.flatMap((from) => direct.map((to) => ({ from, to }))),
  ];
}
