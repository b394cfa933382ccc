import type { SimDirectives } from './directives.js';
import { stripDirectives } from './directives.js';
import type { SimConversation, SimTool } from './sim-conversation.js';
import { argumentsFromSchema, fragmentArguments } from './tool-arguments.js';
import { deterministicWords, simSignature, splitIntoPieces, truncateCharacters } from './text-pieces.js';

/** What the simulated model answers, before any wire format is applied. */
export interface SimReply {
  readonly reasoning: { readonly text: string; readonly pieces: readonly string[]; readonly signature: string } | null;
  readonly text: { readonly text: string; readonly pieces: readonly string[] } | null;
  readonly toolCalls: readonly SimToolCall[];
  readonly finish: 'stop' | 'length' | 'tool_calls';
  readonly usage: SimUsage;
}

export interface SimToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly argumentsJson: string;
  readonly fragments: readonly string[];
  readonly signature: string;
}

export interface SimUsage {
  readonly inputTokens: number;
  /** Part of `inputTokens` written to the prompt cache (`[cache:N]`, at most all of the input). */
  readonly cacheWriteTokens: number;
  /** All output, reasoning included. */
  readonly outputTokens: number;
  readonly reasoningTokens: number;
}

const echoLimit = 200;

export function inputTokensFor(inputCharacters: number): number {
  return Math.max(1, Math.ceil(inputCharacters / 4));
}

export function planReply(conversation: SimConversation, directives: SimDirectives): SimReply {
  const onToolResult = conversation.toolResult !== null;
  const subject = onToolResult
    ? truncateCharacters(conversation.toolResult ?? '', echoLimit)
    : truncateCharacters(stripDirectives(conversation.userText), echoLimit);

  const reasoning = directives.think || conversation.reasoningRequested ? planReasoning(subject) : null;
  // After a tool result the model always answers in text, so agent loops terminate.
  const toolRequest = onToolResult || directives.length ? null : requestedTools(conversation, directives);

  let text: string | null = null;
  let toolCalls: SimToolCall[] = [];
  if (toolRequest !== null && typeof toolRequest === 'string') {
    text = toolRequest;
  } else if (toolRequest !== null) {
    toolCalls = toolRequest.map((tool) => planToolCall(tool));
  } else if (onToolResult) {
    text = `Tool result: ${subject}`;
  } else if (directives.words !== null) {
    text = deterministicWords(directives.words);
  } else {
    text = `You said: ${subject === '' ? '(nothing)' : subject}`;
  }

  let pieces = text === null ? [] : splitIntoPieces(text);
  let finish: SimReply['finish'] = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  if (directives.length) finish = 'length';
  // The cap bounds every output token, thinking included, as the vendors' caps do: the text gets what thinking leaves.
  const limit = conversation.maxOutputTokens === null ? null : Math.max(1, conversation.maxOutputTokens - (reasoning?.pieces.length ?? 0));
  if (text !== null && limit !== null && limit > 0 && pieces.length > limit) {
    pieces = pieces.slice(0, limit);
    text = pieces.join('');
    finish = 'length';
  }

  const reasoningTokens = reasoning?.pieces.length ?? 0;
  const toolTokens = toolCalls.reduce((sum, call) => sum + call.fragments.filter((fragment) => fragment !== '').length, 0);
  const inputTokens = inputTokensFor(conversation.inputCharacters);
  return {
    reasoning,
    text: text === null ? null : { text, pieces },
    toolCalls,
    finish,
    usage: {
      inputTokens,
      cacheWriteTokens: Math.min(directives.cacheWriteTokens, inputTokens),
      outputTokens: Math.max(1, pieces.length + toolTokens + reasoningTokens),
      reasoningTokens,
    },
  };
}

function planReasoning(subject: string): NonNullable<SimReply['reasoning']> {
  const text = `Thinking about: ${subject === '' ? '(nothing)' : subject}`;
  return { text, pieces: splitIntoPieces(text), signature: simSignature(text) };
}

/** The tools to call, a text explaining why none can be called, or null for a plain answer. */
function requestedTools(conversation: SimConversation, directives: SimDirectives): SimTool[] | string | null {
  const forced = conversation.forcedTool;
  const request = directives.tool ?? (forced === null ? null : { name: forced.kind === 'named' ? forced.name : undefined, count: 1 });
  if (request === null) return null;
  const tools = conversation.tools;
  if (tools.length === 0) return 'You asked for a tool call, but the request has no tools.';
  if (request.name !== undefined) {
    const named = tools.find((tool) => tool.name === request.name);
    if (named === undefined) return `You asked for the tool ${request.name}, but the request has no tool with that name.`;
    return Array.from({ length: request.count }, () => named);
  }
  return Array.from({ length: request.count }, (_, index) => tools[index % tools.length]).filter(
    (tool) => tool !== undefined,
  );
}

function planToolCall(tool: SimTool): SimToolCall {
  const args = argumentsFromSchema(tool.schema);
  const argumentsJson = JSON.stringify(args);
  return {
    name: tool.name,
    arguments: args,
    argumentsJson,
    fragments: fragmentArguments(argumentsJson),
    signature: simSignature(`${tool.name}:${argumentsJson}`),
  };
}
