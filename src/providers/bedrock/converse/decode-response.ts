import { GatewayError } from '../../../errors/gateway-error.js';
import type { IrRequest, IrResponse, OutputPart } from '../../../ir/index.js';
import type { JsonRecord } from '../../../json/json-value.js';
import { isRecord, readArray, readRecord, readString } from '../../../json/json-value.js';
import { converseToolUseId } from './converse-tool-ids.js';
import { customToolNames, unwrapCustomInput } from '../../custom-tool-wrapper.js';
import { finishFromConverseStopReason } from './wire/converse-stop-reason.js';
import { usageFromConverseUsage } from './wire/converse-usage.js';

function invalidResponse(detail: string): GatewayError {
  return new GatewayError('upstream_invalid_response', `The upstream returned an unexpected answer: ${detail}.`);
}

function requiredString(block: JsonRecord, key: string, what: string): string {
  const value = readString(block, key);
  if (value === undefined) throw invalidResponse(`${what} without ${key}`);
  return value;
}

/** A `reasoningContent` block: visible reasoning with its signature, or a redacted payload. */
function reasoningPart(reasoning: JsonRecord): OutputPart | undefined {
  const redacted = readString(reasoning, 'redactedContent');
  if (redacted !== undefined) return { type: 'reasoning', text: '', redacted: true, blob: { provider: 'bedrock', value: redacted } };
  const text = readRecord(reasoning, 'reasoningText');
  if (text === undefined) return undefined;
  const signature = readString(text, 'signature');
  return {
    type: 'reasoning',
    text: readString(text, 'text') ?? '',
    ...(signature === undefined || signature === '' ? {} : { blob: { provider: 'bedrock' as const, value: signature } }),
  };
}

/**
 * The stop sequence that matched, where the model reports it: Claude's
 * `additionalModelResponseFields.stop_sequence`.
 */
export function matchedStopSequence(additional: unknown): string | undefined {
  if (!isRecord(additional)) return undefined;
  const direct = readString(additional, 'stop_sequence');
  if (direct !== undefined) return direct;
  const delta = readRecord(additional, 'delta');
  return delta === undefined ? undefined : readString(delta, 'stop_sequence');
}

/**
 * A Converse answer → IR response. Blocks with a neutral meaning become parts; the rest (images,
 * citations, guard content, blocks added to the API later) are kept whole in
 * `extensions.bedrock.content` with their position, instead of being dropped. Converse gives no
 * id, model name or time; the model is the one the request named, the time that of decoding.
 */
export function decodeConverseResponse(body: unknown, request: IrRequest): IrResponse {
  if (!isRecord(body)) throw invalidResponse('not a JSON object');
  const message = readRecord(readRecord(body, 'output'), 'message');
  if (message === undefined) throw invalidResponse('no output message');
  const blocks = readArray(message, 'content');
  if (blocks === undefined) throw invalidResponse('no content array');
  const customTools = customToolNames(request);

  const content: OutputPart[] = [];
  const kept: { after: number; block: JsonRecord }[] = [];
  for (const block of blocks) {
    if (!isRecord(block)) throw invalidResponse('a content block that is not an object');
    const toolUse = readRecord(block, 'toolUse');
    const reasoning = readRecord(block, 'reasoningContent');
    const text = readString(block, 'text');
    if (text !== undefined) {
      content.push({ type: 'text', text });
    } else if (toolUse !== undefined) {
      const name = requiredString(toolUse, 'name', 'a toolUse block');
      const input: unknown = toolUse['input'] ?? {};
      const argumentsText = JSON.stringify(input);
      const custom = customTools.has(name);
      content.push({
        type: 'tool-call',
        // Made to fit Converse's id pattern now, so the id the client echoes back is the one sent.
        id: converseToolUseId(requiredString(toolUse, 'toolUseId', 'a toolUse block')),
        name,
        arguments: custom ? unwrapCustomInput(input, argumentsText) : argumentsText,
        ...(custom ? { kind: 'custom' as const } : {}),
      });
    } else {
      const part = reasoning === undefined ? undefined : reasoningPart(reasoning);
      if (part === undefined) kept.push({ after: content.length, block });
      else content.push(part);
    }
  }

  const extensions: Record<string, unknown> = {
    ...(kept.length > 0 ? { content: kept } : {}),
    ...(body['additionalModelResponseFields'] === undefined ? {} : { additionalModelResponseFields: body['additionalModelResponseFields'] }),
    ...(body['trace'] === undefined ? {} : { trace: body['trace'] }),
  };
  return {
    id: '',
    model: request.model,
    created: Math.floor(Date.now() / 1000),
    content,
    finish: finishFromConverseStopReason(readString(body, 'stopReason'), matchedStopSequence(body['additionalModelResponseFields'])),
    usage: usageFromConverseUsage(body['usage']),
    ...(Object.keys(extensions).length > 0 ? { extensions: { bedrock: extensions } } : {}),
  };
}
