import { GatewayError } from '../../../errors/gateway-error.js';
import { zeroUsage, type FinishInfo, type IrResponse, type OutputPart } from '../../../ir/index.js';
import { isRecord, readRecord, readString } from '../../../json/json-value.js';
import { finishFromChat } from '../../../wire/chat/chat-finish-reason.js';
import { usageFromChatPayload } from '../../../wire/chat/chat-usage.js';

/** A `chat.completion` body as an IR response (first choice only: translated calls ask for one). */
export function decodeChatResponse(body: unknown): IrResponse {
  const choices = isRecord(body) ? body['choices'] : undefined;
  if (!isRecord(body) || !Array.isArray(choices)) {
    throw new GatewayError('upstream_invalid_response', 'The upstream returned a chat completion without choices.');
  }
  const choice: unknown = choices.find((entry) => isRecord(entry) && entry['index'] === 0) ?? choices[0];
  const message = isRecord(choice) ? readRecord(choice, 'message') : undefined;
  const content: OutputPart[] = [];
  let refused = false;
  if (message !== undefined) {
    // Compat servers name visible reasoning `reasoning_content` (DeepSeek, xAI) or `reasoning` (vLLM, OpenRouter).
    const reasoning = readString(message, 'reasoning_content') ?? readString(message, 'reasoning');
    if (reasoning) content.push({ type: 'reasoning', text: reasoning });
    const text = readString(message, 'content');
    if (text) content.push({ type: 'text', text });
    const refusal = readString(message, 'refusal');
    if (refusal) {
      refused = true;
      content.push({ type: 'text', text: refusal });
    }
    content.push(...decodeToolCalls(message['tool_calls']));
    const legacyCall = readRecord(message, 'function_call');
    if (legacyCall) {
      const name = readString(legacyCall, 'name') ?? '';
      content.push({ type: 'tool-call', id: `call_${name}`, name, arguments: readString(legacyCall, 'arguments') ?? '' });
    }
  }
  const hasToolCalls = content.some((part) => part.type === 'tool-call');
  const rawFinish = isRecord(choice) ? readString(choice, 'finish_reason') : undefined;
  let finish: FinishInfo = finishFromChat(rawFinish, hasToolCalls);
  if (refused && finish.reason === 'stop') finish = { ...finish, reason: 'refusal' };
  const created = body['created'];
  return {
    id: readString(body, 'id') ?? '',
    model: readString(body, 'model') ?? '',
    created: typeof created === 'number' ? created : Math.floor(Date.now() / 1000),
    content,
    finish,
    usage: usageFromChatPayload(body) ?? zeroUsage,
  };
}

function decodeToolCalls(value: unknown): OutputPart[] {
  if (!Array.isArray(value)) return [];
  const calls: OutputPart[] = [];
  for (const [position, call] of value.entries()) {
    if (!isRecord(call)) continue;
    const id = readString(call, 'id') || `call_${position}`;
    const custom = readRecord(call, 'custom');
    if (call['type'] === 'custom' && custom) {
      calls.push({ type: 'tool-call', id, name: readString(custom, 'name') ?? '', arguments: readString(custom, 'input') ?? '', kind: 'custom' });
      continue;
    }
    const definition = readRecord(call, 'function');
    calls.push({
      type: 'tool-call',
      id,
      name: (definition && readString(definition, 'name')) ?? '',
      arguments: argumentsText(definition?.['arguments']),
    });
  }
  return calls;
}

/** Some compat servers (Ollama) send arguments as an object instead of JSON text. */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}
