/** Helpers shared by the simulator's tests (not a test file itself). */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll } from 'vitest';
import type { SimulatorHandle } from './index.js';
import { startSimulator } from './index.js';
import { fixtureChunks, readJsonFixture } from '../../test/support/fixtures.js';

/** One recorded stream, parsed: each line of a `*.chunks.txt` fixture is one SSE data payload. */
export function readFixtureChunks(relativePath: string): Array<Record<string, unknown>> {
  return fixtureChunks(relativePath).map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function readFixtureJson(relativePath: string): Record<string, unknown> {
  return readJsonFixture(relativePath) as Record<string, unknown>;
}

export interface ParsedSseEvent {
  readonly event: string | undefined;
  readonly data: string;
}

export function parseSse(text: string): ParsedSseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      let event: string | undefined;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice('event: '.length);
        else if (line.startsWith('data: ')) data.push(line.slice('data: '.length));
      }
      return { event, data: data.join('\n') };
    });
}

/** The JSON payloads of an SSE body, skipping the chat `[DONE]` terminator. */
export function sseJson(text: string): Array<Record<string, unknown>> {
  return parseSse(text)
    .filter((event) => event.data !== '[DONE]')
    .map((event) => JSON.parse(event.data) as Record<string, unknown>);
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** Consecutive runs of the same value collapsed, to compare event orders regardless of delta counts. */
export function collapseRuns(values: readonly string[]): string[] {
  return values.filter((value, index) => index === 0 || values[index - 1] !== value);
}

export function weatherSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: { location: { type: 'string' }, days: { type: 'integer' }, metric: { type: 'boolean' } },
    required: ['location', 'days', 'metric'],
  };
}

/**
 * A simulator on a free port for the calling test file: started before its tests, closed after
 * them. The handle it returns stands in for the real one, which exists only once `beforeAll` ran,
 * so read it inside tests and hooks registered after this call.
 */
export function useSimulator(): SimulatorHandle {
  let started: SimulatorHandle | undefined;
  const running = (): SimulatorHandle => {
    if (started === undefined) throw new Error('The simulator is read before its beforeAll started it.');
    return started;
  };
  beforeAll(async () => {
    started = await startSimulator({ port: 0 });
  });
  afterAll(async () => {
    await started?.close();
  });
  return {
    get url() {
      return running().url;
    },
    get port() {
      return running().port;
    },
    activeStreams: () => running().activeStreams(),
    close: () => running().close(),
  };
}

/** The OpenAI SDK pointed at the simulator, failing fast instead of retrying. */
export function openAiSimulatorClient(sim: SimulatorHandle): OpenAI {
  return new OpenAI({ apiKey: 'sim-key', baseURL: `${sim.url}/v1`, maxRetries: 0 });
}

/** The Anthropic SDK pointed at the simulator, failing fast instead of retrying. */
export function anthropicSimulatorClient(sim: SimulatorHandle): Anthropic {
  return new Anthropic({ apiKey: 'sim-key', baseURL: sim.url, maxRetries: 0 });
}
