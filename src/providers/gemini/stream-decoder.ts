import { GatewayError } from '../../errors/gateway-error.js';
import { zeroUsage, type FinishInfo, type IrRequest, type IrStreamEvent, type Usage } from '../../ir/index.js';
import { readGeminiErrorBody } from './wire/gemini-error-body.js';
import { finishFromBlockReason, finishFromGemini } from './wire/gemini-finish-reason.js';
import { hasTokenCounts, usageFromGemini } from './wire/gemini-usage.js';
import {
  generateContentResponseSchema,
  type GenerateContentResponse,
} from './wire/generate-content-response.js';
import type { StreamDecoder } from '../provider-adapter.js';
import { createCallIdMinter, fallbackResponseId } from './gemini-call-ids.js';
import { customToolNames } from './gemini-custom-tools.js';
import { gatewayErrorFromGemini } from './decode-error.js';
import { createPartAssembler, type PartAssembler } from './gemini-part-assembler.js';
import { responseCreatedSeconds } from './gemini-response-time.js';

/**
 * `streamGenerateContent?alt=sse` → canonical events. Each `data:` is a whole
 * GenerateContentResponse holding only the new parts; `usageMetadata` is cumulative (the last
 * one wins); the last chunk has the `finishReason`. Gemini sends no terminator, so the
 * response ends in `end()`: normally when a finish reason was seen, with an error otherwise.
 */
export function createGeminiStreamDecoder(request: IrRequest): StreamDecoder {
  const customTools = customToolNames(request.tools);
  let assembler: PartAssembler | undefined;
  let usage: Usage = zeroUsage;
  let usageKey = '';
  let rawFinish: string | undefined;
  let blocked: FinishInfo | undefined;
  let finished = false;

  function fail(error: GatewayError): IrStreamEvent[] {
    finished = true;
    return [...(assembler?.closeAll() ?? []), { type: 'error', error }];
  }

  /**
   * The first chunk's usage rides on response-start: Gemini counts the prompt from the first
   * chunk on, and Messages clients read input tokens only from the start of the stream.
   */
  function start(chunk: GenerateContentResponse, startUsage: Usage | undefined, events: IrStreamEvent[]): PartAssembler {
    const id = chunk.responseId || fallbackResponseId();
    events.push({
      type: 'response-start',
      id,
      model: chunk.modelVersion ?? request.model,
      created: responseCreatedSeconds(chunk.createTime),
      ...(startUsage === undefined ? {} : { usage: startUsage }),
    });
    return createPartAssembler({ mintCallId: createCallIdMinter(id), customTools });
  }

  return {
    push(_eventName, data) {
      if (finished) return [];
      let json: unknown;
      try {
        json = JSON.parse(data);
      } catch (cause) {
        return fail(invalidChunk(cause));
      }
      const upstreamError = readGeminiErrorBody(json);
      if (upstreamError !== undefined) return fail(gatewayErrorFromGemini(upstreamError.code ?? 500, upstreamError));
      const parsed = generateContentResponseSchema.safeParse(json);
      if (!parsed.success) return fail(invalidChunk(parsed.error));
      const chunk = parsed.data;
      const chunkUsage = hasTokenCounts(chunk.usageMetadata) ? usageFromGemini(chunk.usageMetadata) : undefined;

      const events: IrStreamEvent[] = [];
      assembler ??= start(chunk, chunkUsage, events);
      const candidate = chunk.candidates?.[0];
      events.push(...assembler.accept(candidate?.content?.parts ?? []));
      if (candidate?.finishReason) rawFinish = candidate.finishReason;
      const blockReason = chunk.promptFeedback?.blockReason;
      if (!candidate && blockReason) blocked = finishFromBlockReason(blockReason);

      if (chunkUsage !== undefined) {
        usage = chunkUsage;
        const key = JSON.stringify(usage);
        // Mid-stream usage lets metering charge what was spent if the stream breaks later;
        // the final figures travel in response-end.
        if (key !== usageKey && rawFinish === undefined && blocked === undefined) events.push({ type: 'usage', usage });
        usageKey = key;
      }
      return events;
    },

    end() {
      if (finished) return [];
      finished = true;
      if (assembler === undefined) {
        return [{ type: 'error', error: new GatewayError('upstream_error', 'The Gemini stream ended without sending anything.') }];
      }
      const events = assembler.closeAll();
      const finish =
        rawFinish !== undefined ? finishFromGemini(rawFinish, assembler.hasToolCalls()) : blocked;
      if (finish === undefined) {
        events.push({
          type: 'error',
          error: new GatewayError('upstream_error', 'The Gemini stream ended before the answer was finished.'),
        });
        return events;
      }
      events.push({ type: 'response-end', finish, usage });
      return events;
    },
  };
}

function invalidChunk(cause: unknown): GatewayError {
  return new GatewayError('upstream_invalid_response', 'The Gemini upstream sent a stream event the gateway cannot read.', {
    cause,
  });
}
