import type { JsonRecord } from '../../json/json-value.js';
import type { SimReply } from '../plan-reply.js';
import type { EncodeContext, SimEndpoint, SimStreamEvent } from '../sim-endpoint.js';
import { bedrockErrorHeaders } from './bedrock-errors.js';
import { extractConverse } from './extract-converse.js';

/** Bedrock Converse replies, shaped after the Bedrock Runtime API reference (Converse, ConverseStream). */
export const converseEndpoint: SimEndpoint = {
  family: 'bedrock',
  extract: (body, pathModel) => extractConverse(body, pathModel ?? 'sim-model'),
  encodeJson: converseAnswer,
  encodeStream: converseEvents,
  headers: (context) => ({ 'x-amzn-requestid': `req_${context.identity.tag}` }),
  errorHeaders: (status) => bedrockErrorHeaders(status),
};

const stopReasons: Record<SimReply['finish'], string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
};

function toolUseId(context: EncodeContext, index: number): string {
  return `tooluse_${context.identity.tag}_${index}`;
}

/**
 * `inputTokens` leaves out the cache writes, stated apart as Bedrock reports prompt caching;
 * `totalTokens` adds every figure back.
 */
function usage(reply: SimReply): JsonRecord {
  const { inputTokens, cacheWriteTokens, outputTokens } = reply.usage;
  return {
    inputTokens: inputTokens - cacheWriteTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    cacheReadInputTokens: 0,
    cacheWriteInputTokens: cacheWriteTokens,
  };
}

/** A made-up but steady latency, so the same request gives the same bytes. */
function metrics(reply: SimReply): JsonRecord {
  return { latencyMs: 100 + 10 * reply.usage.outputTokens };
}

function converseAnswer(reply: SimReply, context: EncodeContext): unknown {
  const content: JsonRecord[] = [];
  if (reply.reasoning !== null) content.push({ reasoningContent: { reasoningText: { text: reply.reasoning.text, signature: reply.reasoning.signature } } });
  if (reply.text !== null) content.push({ text: reply.text.text });
  for (const call of reply.toolCalls) {
    content.push({ toolUse: { toolUseId: toolUseId(context, content.length), name: call.name, input: call.arguments } });
  }
  return { output: { message: { role: 'assistant', content } }, stopReason: stopReasons[reply.finish], usage: usage(reply), metrics: metrics(reply) };
}

/**
 * ConverseStream's events as the recorded streams show them: text and reasoning blocks begin with
 * their first delta, a tool call with `contentBlockStart`; `messageStop`, then `metadata` with usage.
 */
function converseEvents(reply: SimReply, context: EncodeContext): SimStreamEvent[] {
  const events: SimStreamEvent[] = [{ event: 'messageStart', data: { role: 'assistant' } }];
  let index = 0;
  const block = (deltas: readonly JsonRecord[], start?: JsonRecord): void => {
    const contentBlockIndex = index;
    if (start !== undefined) events.push({ event: 'contentBlockStart', data: { contentBlockIndex, start } });
    for (const delta of deltas) events.push({ event: 'contentBlockDelta', data: { contentBlockIndex, delta } });
    events.push({ event: 'contentBlockStop', data: { contentBlockIndex } });
    index += 1;
  };
  if (reply.reasoning !== null) {
    block([
      ...reply.reasoning.pieces.map((piece) => ({ reasoningContent: { text: piece } })),
      { reasoningContent: { signature: reply.reasoning.signature } },
    ]);
  }
  if (reply.text !== null) block(reply.text.pieces.map((piece) => ({ text: piece })));
  for (const call of reply.toolCalls) {
    const fragments = call.fragments.filter((fragment) => fragment !== '');
    block(fragments.map((fragment) => ({ toolUse: { input: fragment } })), { toolUse: { toolUseId: toolUseId(context, index), name: call.name } });
  }
  events.push({ event: 'messageStop', data: { stopReason: stopReasons[reply.finish] } });
  events.push({ event: 'metadata', data: { usage: usage(reply), metrics: metrics(reply) } });
  return events;
}
