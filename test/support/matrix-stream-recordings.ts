import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { IrStreamEvent } from '../../src/ir/index.js';
import { fixturesRoot } from './fixtures.js';
import { textGenerationForWire, bareIrRequest } from './matrix-decode.js';
import { recordingChunks, type UpstreamWire } from './matrix-recordings.js';

/** Where each upstream wire's stream recordings live. */
const recordingFolders: Record<UpstreamWire, readonly string[]> = {
  chat: ['openai/chat', 'openai-compatible/chat'],
  responses: ['openai/responses'],
  anthropic: ['anthropic/messages'],
  gemini: ['google/generate-content'],
  converse: ['bedrock/converse'],
};

export interface StreamRecording {
  readonly wire: UpstreamWire;
  /** File and stream index, for test titles. */
  readonly name: string;
  readonly chunks: readonly string[];
}

/** Every stream of every `.chunks.txt` recording of a wire; multi-stream files give one entry per stream. */
export function streamRecordings(wire: UpstreamWire): StreamRecording[] {
  const recordings: StreamRecording[] = [];
  for (const folder of recordingFolders[wire]) {
    const files = readdirSync(path.join(fixturesRoot, folder)).filter((file) => file.endsWith('.chunks.txt')).sort();
    for (const file of files) {
      const relative = `${folder}/${file}`;
      for (let streamIndex = 0; ; streamIndex++) {
        let chunks: string[];
        try {
          chunks = recordingChunks({ file: relative, streamIndex, inputTokens: 0 });
        } catch {
          break;
        }
        recordings.push({ wire, name: streamIndex === 0 ? relative : `${relative}#${streamIndex}`, chunks });
      }
    }
  }
  return recordings;
}

/**
 * Feeds the recorded data payloads to the provider's stream decoder as SSE events would arrive;
 * a Converse line `{"<event name>": <payload>}` as its event-stream frame would.
 */
export function decodeRecordedChunks(recording: StreamRecording): IrStreamEvent[] {
  const decoder = textGenerationForWire(recording.wire).createStreamDecoder(bareIrRequest(true));
  const events: IrStreamEvent[] = [];
  const named = recording.wire === 'responses' || recording.wire === 'anthropic';
  for (const chunk of recording.chunks) {
    if (recording.wire === 'converse') {
      const [eventName, payload] = Object.entries(JSON.parse(chunk) as Record<string, unknown>)[0] ?? ['', {}];
      events.push(...decoder.push(eventName, JSON.stringify(payload)));
      continue;
    }
    const eventName = named ? ((JSON.parse(chunk) as { type?: string }).type ?? undefined) : undefined;
    events.push(...decoder.push(eventName, chunk));
  }
  if (recording.wire === 'chat') events.push(...decoder.push(undefined, '[DONE]'));
  events.push(...decoder.end());
  return events;
}
