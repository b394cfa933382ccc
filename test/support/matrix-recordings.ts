import type { FormatName } from '../../src/ir/format-name.js';
import { fixtureChunks, readFixture, sseFromChunks } from './fixtures.js';
import { converseEventStream, type AnswerReply } from './scripted-upstream/index.js';
import { splitSse } from './sse.js';

/** What a matrix upstream answers: recorded bytes, or whatever the simulator says to the same request. */
export type MatrixReply = AnswerReply | 'simulator';

/**
 * The upstream kinds of the matrix, named after the provider `type` in the config; a cloud
 * platform's rows also name the model family the route's model id picks on it (Claude through
 * InvokeModel or any other model through Converse on Bedrock; Gemini or Claude on Vertex AI).
 */
export type UpstreamKind = 'openai-compatible' | 'openai' | 'anthropic' | 'gemini' | 'azure' | 'bedrock-anthropic' | 'bedrock-converse' | 'vertex-gemini' | 'vertex-anthropic';
export const upstreamKinds: readonly UpstreamKind[] = [
  'openai-compatible',
  'openai',
  'anthropic',
  'gemini',
  'azure',
  'bedrock-anthropic',
  'bedrock-converse',
  'vertex-gemini',
  'vertex-anthropic',
];

/** The wire format the gateway actually speaks to the upstream (Claude on Bedrock and Vertex speaks Anthropic's). */
export type UpstreamWire = 'chat' | 'responses' | 'anthropic' | 'gemini' | 'converse';

/**
 * OpenAI serves both of its formats, so a chat client on an `openai` provider is passed through
 * to Chat Completions, not translated to Responses (src/providers/registry.ts).
 */
export function wireFor(format: FormatName, kind: UpstreamKind): UpstreamWire {
  switch (kind) {
    case 'openai-compatible':
      return 'chat';
    case 'openai':
      return format === 'chat' ? 'chat' : 'responses';
    case 'anthropic':
    case 'bedrock-anthropic':
    case 'vertex-anthropic':
      return 'anthropic';
    case 'gemini':
    case 'vertex-gemini':
      return 'gemini';
    case 'bedrock-converse':
      return 'converse';
    case 'azure':
      // Azure passes both OpenAI formats through and translates Messages clients to chat completions.
      return format === 'responses' ? 'responses' : 'chat';
  }
}

/** Whether the gateway passes the client's body and the upstream's bytes through unchanged. */
export function isPassthrough(format: FormatName, kind: UpstreamKind): boolean {
  const wire = wireFor(format, kind);
  return (format === 'chat' && wire === 'chat') || (format === 'responses' && wire === 'responses') || (format === 'messages' && wire === 'anthropic');
}

export type ScenarioKind = 'text' | 'tool' | 'parallel' | 'reasoning';

/** A recording, and facts read off it by hand that anchor the decoded expectation. */
export interface Recording {
  readonly file: string;
  /** For files holding several streams: which one (0-based). */
  readonly streamIndex?: number;
  /** Total input tokens the upstream reported. */
  readonly inputTokens: number;
  /** Tool names in order, when the answer calls tools. */
  readonly toolNames?: readonly string[];
  /** A piece of the answer text. */
  readonly textIncludes?: string;
}

export type ReplySource = { readonly recording: Recording } | { readonly simulator: string };

export interface WireScenario {
  readonly stream: ReplySource;
  readonly nonStream: ReplySource;
}

const promptFor: Record<'parallel' | 'thoughts', string> = {
  parallel: 'check two places [tools:2]',
  thoughts: 'why is the sky blue [think]',
};

const chat = 'openai-compatible/chat';
const openaiChat = 'openai/chat';
const responses = 'openai/responses';
const anthropic = 'anthropic/messages';
const google = 'google/generate-content';
const converse = 'bedrock/converse';

/** Where each cell's upstream answer comes from, per upstream wire. */
export const wireScenarios: Record<UpstreamWire, Record<ScenarioKind, WireScenario>> = {
  chat: {
    text: {
      stream: { recording: { file: `${openaiChat}/openai-text.chunks.txt`, inputTokens: 16, textIncludes: 'Harmony Day' } },
      nonStream: { recording: { file: `${openaiChat}/openai-text.json`, inputTokens: 16, textIncludes: 'Galaxy Day' } },
    },
    tool: {
      stream: { recording: { file: `${chat}/deepseek-tool-call.chunks.txt`, inputTokens: 339, toolNames: ['weather'] } },
      nonStream: { recording: { file: `${chat}/deepseek-tool-call.json`, inputTokens: 339, toolNames: ['weather'] } },
    },
    parallel: { stream: { simulator: promptFor.parallel }, nonStream: { simulator: promptFor.parallel } },
    reasoning: {
      stream: { recording: { file: `${chat}/xai-tool-call.chunks.txt`, inputTokens: 307, toolNames: ['weather'] } },
      nonStream: { recording: { file: `${chat}/xai-tool-call.json`, inputTokens: 307, toolNames: ['weather'] } },
    },
  },
  responses: {
    text: {
      stream: { recording: { file: `${responses}/azure-text.1.chunks.txt`, inputTokens: 11 } },
      nonStream: { recording: { file: `${responses}/azure-text.1.json`, inputTokens: 11 } },
    },
    tool: {
      stream: { recording: { file: `${responses}/azure-tool-call.1.chunks.txt`, inputTokens: 45, toolNames: ['weather'] } },
      nonStream: { recording: { file: `${responses}/azure-tool-call.1.json`, inputTokens: 45, toolNames: ['weather'] } },
    },
    parallel: { stream: { simulator: promptFor.parallel }, nonStream: { simulator: promptFor.parallel } },
    reasoning: {
      stream: { recording: { file: `${responses}/openai-reasoning-encrypted-content.1.chunks.txt`, streamIndex: 0, inputTokens: 134, toolNames: ['calculator'] } },
      nonStream: { recording: { file: `${responses}/openai-reasoning-encrypted-content.1.json`, inputTokens: 865, textIncludes: '12 + 7 = 19' } },
    },
  },
  anthropic: {
    text: {
      stream: { recording: { file: `${anthropic}/anthropic-text.chunks.txt`, inputTokens: 12, textIncludes: 'Hello' } },
      nonStream: { recording: { file: `${anthropic}/anthropic-text.json`, inputTokens: 12, textIncludes: "Hello! I'm doing well" } },
    },
    tool: {
      stream: { recording: { file: `${anthropic}/anthropic-json-tool.1.chunks.txt`, inputTokens: 849, toolNames: ['json'] } },
      nonStream: { recording: { file: `${anthropic}/anthropic-json-tool.1.json`, inputTokens: 1151, toolNames: ['json'] } },
    },
    parallel: { stream: { simulator: promptFor.parallel }, nonStream: { simulator: promptFor.parallel } },
    reasoning: {
      stream: { recording: { file: `${anthropic}/anthropic-clear-thinking.1.chunks.txt`, inputTokens: 69, textIncludes: '925 ÷ 5 = 185' } },
      nonStream: { recording: { file: `${anthropic}/anthropic-clear-thinking.1.json`, inputTokens: 69 } },
    },
  },
  gemini: {
    text: {
      stream: { recording: { file: `${google}/google-text.chunks.txt`, inputTokens: 9, textIncludes: 'There are **3**' } },
      nonStream: { recording: { file: `${google}/google-text.json`, inputTokens: 9, textIncludes: 'strawberry' } },
    },
    tool: {
      stream: { recording: { file: `${google}/google-tool-call.chunks.txt`, inputTokens: 29, toolNames: ['weather'] } },
      nonStream: { recording: { file: `${google}/google-tool-call.json`, inputTokens: 29, toolNames: ['weather'] } },
    },
    parallel: {
      stream: {
        recording: {
          file: `${google}/google-stream-no-args-tool-call.chunks.txt`,
          inputTokens: 249,
          toolNames: ['read_theme', 'read_screen', 'read_screen', 'read_screen'],
        },
      },
      nonStream: { simulator: promptFor.parallel },
    },
    // Gemini returns no thought text unless asked (only signatures and thought token counts);
    // the simulator supplies visible thoughts in the extra scenario below.
    reasoning: {
      stream: { recording: { file: `${google}/google-reasoning.chunks.txt`, inputTokens: 9, textIncludes: 'strawberry' } },
      nonStream: { recording: { file: `${google}/google-reasoning.json`, inputTokens: 9, textIncludes: 'strawberry' } },
    },
  },
  // Recorded Converse answers (test/fixtures/README.md); no simulator cell, since every case has one.
  converse: {
    text: {
      stream: { recording: { file: `${converse}/bedrock-text.chunks.txt`, inputTokens: 22, textIncludes: 'There are **3' } },
      nonStream: { recording: { file: `${converse}/amazon-bedrock-text.json`, inputTokens: 22, textIncludes: 'strawberry' } },
    },
    tool: {
      stream: { recording: { file: `${converse}/bedrock-tool-call.1.chunks.txt`, inputTokens: 125, toolNames: ['test-tool'] } },
      nonStream: { recording: { file: `${converse}/bedrock-tool-call.1.json`, inputTokens: 10, toolNames: ['bash'] } },
    },
    parallel: {
      stream: { recording: { file: `${converse}/bedrock-json-tool-text-then-weather-then-json.1.chunks.txt`, inputTokens: 500, toolNames: ['weather', 'weather'] } },
      nonStream: { recording: { file: `${converse}/issue-17267-parallel-tool-calls.json`, inputTokens: 694, toolNames: ['get_resistor_value', 'get_capacitor_value'] } },
    },
    reasoning: {
      stream: { recording: { file: `${converse}/bedrock-reasoning.chunks.txt`, inputTokens: 51, textIncludes: 'strawberry' } },
      nonStream: { recording: { file: `${converse}/amazon-bedrock-reasoning.json`, inputTokens: 51, textIncludes: 'strawberry' } },
    },
  },
};

/** Visible reasoning from upstreams whose recordings have none for a mode (simulator `[think]`). */
export const thoughtsScenario: WireScenario = { stream: { simulator: promptFor.thoughts }, nonStream: { simulator: promptFor.thoughts } };

/** The SSE framing of each wire: chat ends with `[DONE]`, Responses and Anthropic name their events (Converse streams no SSE). */
export function sseText(wire: Exclude<UpstreamWire, 'converse'>, chunks: readonly string[]): string {
  if (wire === 'chat') return sseFromChunks(chunks, 'data', true);
  if (wire === 'gemini') return sseFromChunks(chunks, 'data');
  return sseFromChunks(chunks, 'named');
}

/** The chunks of one stream of a recording; files may hold several, each starting anew. */
export function recordingChunks(recording: Recording): string[] {
  const chunks = fixtureChunks(recording.file);
  if (recording.streamIndex === undefined) return chunks;
  const streams: string[][] = [];
  for (const chunk of chunks) {
    const type = (JSON.parse(chunk) as { type?: unknown }).type;
    if (type === 'response.created' || type === 'message_start' || streams.length === 0) streams.push([]);
    streams.at(-1)!.push(chunk);
  }
  const stream = streams[recording.streamIndex];
  if (stream === undefined) throw new Error(`${recording.file} has no stream ${recording.streamIndex}`);
  return stream;
}

export function isSimulator(source: ReplySource): source is { readonly simulator: string } {
  return 'simulator' in source;
}

/** The upstream's reply for a cell. */
export function replyFor(wire: UpstreamWire, source: ReplySource, stream: boolean): MatrixReply {
  if (isSimulator(source)) return 'simulator';
  if (!stream) return { body: readFixture(source.recording.file) };
  if (wire === 'converse') return converseEventStream(recordingChunks(source.recording));
  // Event by event, so the gateway sees the recording's event boundaries as separate reads.
  return { pieces: splitSse(sseText(wire, recordingChunks(source.recording))) };
}


/** Names a source in test titles and the report. */
export function sourceName(source: ReplySource): string {
  if (isSimulator(source)) return 'simulator';
  const file = source.recording.file.split('/').at(-1) ?? source.recording.file;
  return source.recording.streamIndex === undefined ? file : `${file}#${source.recording.streamIndex}`;
}

/** The default prompt; simulator cells carry their directive in the prompt. */
export function promptOf(source: ReplySource): string {
  return isSimulator(source) ? source.simulator : 'what is the weather in San Francisco?';
}

/**
 * Turn one of the reasoning round trips: answers whose reasoning carries the upstream's opaque
 * value (Gemini's comes on a function call, which Gemini 3 requires back in the next turn).
 */
export const reasoningRoundTripScenarios: Record<UpstreamWire, WireScenario> = {
  chat: wireScenarios.chat.reasoning,
  responses: wireScenarios.responses.reasoning,
  anthropic: wireScenarios.anthropic.reasoning,
  gemini: {
    stream: { recording: { file: `${google}/google-tool-call-gemini3.chunks.txt`, inputTokens: 29, toolNames: ['weather'] } },
    nonStream: { recording: { file: `${google}/google-tool-call-gemini3.json`, inputTokens: 29, toolNames: ['weather'] } },
  },
  converse: wireScenarios.converse.reasoning,
};
