import { GatewayError } from '../../../errors/gateway-error.js';
import { zeroUsage, type IrResponse, type OutputPart } from '../../../ir/index.js';
import { isRecord, readRecord, readString } from '../../../json/json-value.js';
import { gatewayErrorFromResponses, parseResponsesError } from '../../../wire/responses/responses-error.js';
import { finishFromResponses } from '../../../wire/responses/responses-status.js';
import { usageFromResponsesUsage } from '../../../wire/responses/responses-usage.js';
import { readOutputItem } from './output-item.js';

/**
 * A Response object as an IR response. Hosted tool items (web_search_call, image_generation_call,
 * …) have no IR form: they ride in `extensions.openai.hostedOutput`, and reasoning items with
 * neither summary nor encrypted content (store:true runs) are left out as they hold nothing.
 */
export function decodeResponsesResponse(body: unknown): IrResponse {
  if (!isRecord(body) || !Array.isArray(body['output'])) {
    throw new GatewayError('upstream_invalid_response', 'The upstream returned a response without output.');
  }
  const status = readString(body, 'status');
  if (status === 'failed') throw gatewayErrorFromResponses(parseResponsesError(body['error']) ?? parseResponsesError(body));
  const content: OutputPart[] = [];
  const hostedOutput: unknown[] = [];
  let refused = false;
  for (const entry of body['output'] as unknown[]) {
    if (!isRecord(entry)) continue;
    const read = readOutputItem(entry);
    if (read.kind === 'message') {
      refused ||= read.refused;
      if (read.text !== '') content.push({ type: 'text', text: read.text });
    } else if (read.kind === 'reasoning') {
      if (read.part.text !== '' || read.part.blob !== undefined) content.push(read.part);
    } else if (read.kind === 'call') {
      content.push(read.part);
    } else {
      hostedOutput.push(entry);
    }
  }
  const createdAt = body['created_at'];
  return {
    id: readString(body, 'id') ?? '',
    model: readString(body, 'model') ?? '',
    created: typeof createdAt === 'number' ? createdAt : Math.floor(Date.now() / 1000),
    content,
    finish: finishFromResponses({
      status,
      incompleteReason: readString(readRecord(body, 'incomplete_details') ?? {}, 'reason'),
      hasToolCalls: content.some((part) => part.type === 'tool-call'),
      refused,
    }),
    usage: usageFromResponsesUsage(body['usage']) ?? zeroUsage,
    ...(hostedOutput.length > 0 ? { extensions: { openai: { hostedOutput } } } : {}),
  };
}
