import { GatewayError } from '../../../errors/gateway-error.js';
import type { CacheControl, ReasoningPart, TextPart, ToolCallPart, ToolResultPart } from '../../../ir/index.js';
import { isRecord, parseJson } from '../../../json/json-value.js';
import { converseToolUseId } from './converse-tool-ids.js';
import { encodeFile, encodeImage } from './encode-media.js';
import type {
  ConverseCachePoint,
  ConverseContentBlock,
  ConverseReasoningBlock,
  ConverseToolResultBlock,
  ConverseToolResultContent,
  ConverseToolUseBlock,
} from './wire/converse-request.js';

export const cachePoint: ConverseCachePoint = { cachePoint: { type: 'default' } };

/** Converse marks a cache breakpoint with a block of its own after the content it ends. */
export function withCachePoint<Block>(block: Block, cacheControl: CacheControl | undefined): (Block | ConverseCachePoint)[] {
  return cacheControl === undefined ? [block] : [block, cachePoint];
}

/** Converse rejects blank text blocks, and they carry nothing, so they are left out. */
export function encodeText(part: TextPart): ConverseContentBlock[] {
  if (part.text.trim() === '') return [];
  return withCachePoint({ text: part.text }, part.cacheControl);
}

/**
 * Tool-call arguments are JSON text in the IR but a JSON value in Converse. Text that is not a JSON
 * object is refused rather than replaced by `{}`: silently sending different arguments would
 * rewrite the history the model reasons over. A custom tool's raw text is wrapped as its one field.
 */
export function encodeToolCall(part: ToolCallPart, param: string): ConverseToolUseBlock {
  const toolUseId = converseToolUseId(part.id);
  if (part.kind === 'custom') return { toolUse: { toolUseId, name: part.name, input: { input: part.arguments } } };
  if (part.arguments.trim() === '') return { toolUse: { toolUseId, name: part.name, input: {} } };
  const input = parseJson(part.arguments);
  if (!isRecord(input)) {
    throw new GatewayError('invalid_request', `The arguments of tool call ${part.id} (${part.name}) are not a JSON object, which this model requires.`, { param });
  }
  return { toolUse: { toolUseId, name: part.name, input } };
}

/**
 * Reasoning is replayed only when Bedrock minted its signature (or its redacted payload): a
 * signature is bound to what produced it, and reasoning from any other provider would be
 * rejected, so it is left out of the history, as is reasoning that came without a signature.
 */
export function encodeReasoning(part: ReasoningPart): ConverseReasoningBlock | undefined {
  if (part.blob?.provider !== 'bedrock') return undefined;
  if (part.redacted === true) return { reasoningContent: { redactedContent: part.blob.value } };
  return { reasoningContent: { reasoningText: { text: part.text, signature: part.blob.value } } };
}

/** A tool result → a `toolResult` block: its text, images and documents, and `status: error` for failures. */
export function encodeToolResult(part: ToolResultPart, param: string): (ConverseToolResultBlock | ConverseCachePoint)[] {
  const content: ConverseToolResultContent[] = [];
  if (typeof part.content === 'string') {
    if (part.content !== '') content.push({ text: part.content });
  } else {
    part.content.forEach((inner, index) => {
      if (inner.type === 'text') {
        if (inner.text !== '') content.push({ text: inner.text });
      } else if (inner.type === 'image') {
        content.push(encodeImage(inner, param));
      } else {
        content.push(encodeFile(inner, index, param));
      }
    });
  }
  // Converse requires a result to hold something; an empty one is said in words.
  if (content.length === 0) content.push({ text: '(no output)' });
  const block: ConverseToolResultBlock = {
    toolResult: { toolUseId: converseToolUseId(part.callId), content, ...(part.isError === true ? { status: 'error' as const } : {}) },
  };
  return withCachePoint(block, part.cacheControl);
}
