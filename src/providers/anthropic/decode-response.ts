import { GatewayError } from '../../errors/gateway-error.js';
import type { IrRequest, IrResponse, OutputPart } from '../../ir/index.js';
import type { JsonRecord } from '../../json/json-value.js';
import { isRecord, readArray, readString } from '../../json/json-value.js';
import {
  finishFromStopReason,
  usageFromMessagesUsage,
} from '../../wire/messages/index.js';
import type { MessagesResponseExtensions } from '../../wire/messages/index.js';
import { customToolNames, unwrapCustomInput } from '../custom-tool-wrapper.js';

function invalidResponse(detail: string): GatewayError {
  return new GatewayError('upstream_invalid_response', `The upstream returned an unexpected message: ${detail}.`);
}

function requiredString(block: JsonRecord, key: string, what: string): string {
  const value = readString(block, key);
  if (value === undefined) throw invalidResponse(`${what} without ${key}`);
  return value;
}

/**
 * A Messages `message` body → IR response. Blocks with a neutral meaning become parts; server-tool
 * blocks (server_tool_use, web_search_tool_result, …) and any block type not known here are kept
 * whole in `extensions.anthropic.content`, with their position, instead of being dropped.
 */
export function decodeMessagesResponse(body: unknown, request: IrRequest): IrResponse {
  if (!isRecord(body) || body['type'] !== 'message') throw invalidResponse('not a message object');
  const blocks = readArray(body, 'content');
  if (blocks === undefined) throw invalidResponse('no content array');
  const customTools = customToolNames(request);

  const content: OutputPart[] = [];
  const kept: { after: number; block: JsonRecord }[] = [];
  const citations: { part: number; citations: readonly unknown[] }[] = [];
  for (const block of blocks) {
    if (!isRecord(block)) throw invalidResponse('a content block that is not an object');
    switch (block['type']) {
      case 'text': {
        const blockCitations = readArray(block, 'citations');
        if (blockCitations !== undefined && blockCitations.length > 0) {
          citations.push({ part: content.length, citations: blockCitations });
        }
        content.push({ type: 'text', text: requiredString(block, 'text', 'a text block') });
        break;
      }
      case 'thinking':
        content.push({
          type: 'reasoning',
          text: requiredString(block, 'thinking', 'a thinking block'),
          blob: { provider: 'anthropic', value: requiredString(block, 'signature', 'a thinking block') },
        });
        break;
      case 'redacted_thinking':
        content.push({
          type: 'reasoning',
          text: '',
          redacted: true,
          blob: { provider: 'anthropic', value: requiredString(block, 'data', 'a redacted_thinking block') },
        });
        break;
      case 'tool_use': {
        const name = requiredString(block, 'name', 'a tool_use block');
        const input: unknown = block['input'] ?? {};
        const argumentsText = JSON.stringify(input);
        const custom = customTools.has(name);
        content.push({
          type: 'tool-call',
          id: requiredString(block, 'id', 'a tool_use block'),
          name,
          arguments: custom ? unwrapCustomInput(input, argumentsText) : argumentsText,
          ...(custom ? { kind: 'custom' as const } : {}),
        });
        break;
      }
      default:
        kept.push({ after: content.length, block });
    }
  }

  const extensions: MessagesResponseExtensions = {
    ...(kept.length > 0 ? { content: kept } : {}),
    ...(citations.length > 0 ? { citations } : {}),
    ...(body['stop_details'] === undefined || body['stop_details'] === null ? {} : { stop_details: body['stop_details'] }),
    ...(body['context_management'] === undefined ? {} : { context_management: body['context_management'] }),
    ...(body['container'] === undefined || body['container'] === null ? {} : { container: body['container'] }),
    ...(body['usage'] === undefined ? {} : { usage: body['usage'] }),
  };

  const stopReason = readString(body, 'stop_reason');
  const stopSequence = readString(body, 'stop_sequence');
  return {
    id: readString(body, 'id') ?? '',
    model: readString(body, 'model') ?? '',
    // Messages gives no timestamp; the time of decoding stands in for it.
    created: Math.floor(Date.now() / 1000),
    content,
    finish: finishFromStopReason(stopReason, stopSequence),
    usage: usageFromMessagesUsage(body['usage']),
    extensions: { anthropic: extensions },
  };
}
