import { GatewayError } from '../../../errors/gateway-error.js';
import type { IrRequest } from '../../../ir/index.js';
import { isRecord } from '../../../json/json-value.js';
import type { UpstreamHttpRequest, UpstreamTarget } from '../../provider-adapter.js';
import { encodeConversation } from './encode-messages.js';
import { encodeReasoning } from './encode-reasoning.js';
import { encodeToolConfig } from './encode-tools.js';
import type { ConverseInferenceConfig, ConverseOutputConfig, ConverseRequestBody } from './wire/converse-request.js';

/** What a Converse call needs of its upstream: where Bedrock Runtime is, and the model id (or inference profile, or ARN). */
export type ConverseTarget = Pick<UpstreamTarget, 'baseUrl' | 'model'>;

/**
 * A JSON-schema response format → Converse's structured output. `json_object` has no Converse
 * counterpart; such prompts already ask for JSON, so it is not sent.
 */
function encodeOutputConfig(request: IrRequest): ConverseOutputConfig | undefined {
  const format = request.responseFormat;
  if (format?.type !== 'json_schema') return undefined;
  return {
    textFormat: {
      type: 'json_schema',
      structure: {
        jsonSchema: {
          schema: JSON.stringify(format.schema),
          name: format.name,
          ...(format.description === undefined ? {} : { description: format.description }),
        },
      },
    },
  };
}

/**
 * The Converse body for an IR request. `seed`, `top_k` and the frequency/presence penalties have
 * no Converse field (each model names them differently, if at all) and are not sent; nor are
 * `user` and `metadata`. `extensions.bedrock` holds fields a caller set for Converse itself
 * (`guardrailConfig`, `performanceConfig`, …): they are sent as given, and an
 * `additionalModelRequestFields` there is merged under the gateway's own.
 */
export function buildConverseBody(request: IrRequest, target: ConverseTarget): ConverseRequestBody {
  if (request.params.choiceCount !== undefined && request.params.choiceCount > 1) {
    throw new GatewayError('unsupported_parameter', 'This model returns one choice per request.', { param: 'n' });
  }
  const conversation = encodeConversation(request.messages);
  const toolConfig = encodeToolConfig(request, conversation.calledTools);
  const reasoning = encodeReasoning(request, target.model);
  const params = request.params;
  const inferenceConfig: ConverseInferenceConfig = {
    ...(reasoning.maxTokens === undefined ? {} : { maxTokens: reasoning.maxTokens }),
    ...(params.temperature === undefined || !reasoning.samplingAllowed ? {} : { temperature: params.temperature }),
    ...(params.topP === undefined || !reasoning.samplingAllowed ? {} : { topP: params.topP }),
    ...(params.stop === undefined || params.stop.length === 0 ? {} : { stopSequences: params.stop }),
  };
  const extras = request.extensions['bedrock'] ?? {};
  const extraFields = isRecord(extras['additionalModelRequestFields']) ? extras['additionalModelRequestFields'] : {};
  const additionalModelRequestFields = { ...extraFields, ...reasoning.fields };
  const outputConfig = encodeOutputConfig(request);
  return {
    ...extras,
    messages: conversation.messages,
    ...(conversation.system.length > 0 ? { system: conversation.system } : {}),
    ...(Object.keys(inferenceConfig).length > 0 ? { inferenceConfig } : {}),
    ...(toolConfig === undefined ? {} : { toolConfig }),
    ...(outputConfig === undefined ? {} : { outputConfig }),
    ...(Object.keys(additionalModelRequestFields).length > 0 ? { additionalModelRequestFields } : {}),
  };
}

/**
 * The Converse call: `POST {base}/model/{modelId}/converse`, or `/converse-stream` for a streamed
 * answer. The model id is one path segment, so an ARN's slashes and a version's colon are encoded.
 * Headers carry only the content type: the credential (SigV4 or a Bedrock API key) is added by the
 * transport, which signs the finished request.
 */
export function buildConverseRequest(request: IrRequest, target: ConverseTarget): UpstreamHttpRequest {
  const operation = request.stream ? 'converse-stream' : 'converse';
  return {
    url: `${target.baseUrl}/model/${encodeURIComponent(target.model)}/${operation}`,
    headers: { 'content-type': 'application/json', accept: request.stream ? 'application/vnd.amazon.eventstream' : 'application/json' },
    body: JSON.stringify(buildConverseBody(request, target)),
  };
}
