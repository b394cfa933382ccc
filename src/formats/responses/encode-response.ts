import type { IrResponse } from '../../ir/index.js';
import { responsesOutcome } from '../../wire/responses/responses-status.js';
import { responsesUsageFromUsage } from '../../wire/responses/responses-usage.js';
import type { ResponsesObject } from '../../wire/responses/responses-wire-types.js';
import type { EncodeContext } from '../client-format.js';
import { outputItems } from './output-items.js';
import { responseObject } from './response-object.js';
import { responseId } from './response-ids.js';

/** The Response object as OpenAI returns it for a non-streamed call. */
export function encodeResponsesResponse(response: IrResponse, context: EncodeContext): ResponsesObject {
  const id = responseId(response.id, context.requestId);
  const outcome = responsesOutcome(response.finish);
  return responseObject(
    {
      id,
      createdAt: response.created,
      status: outcome.status,
      output: outputItems(response.content, id, context.request.tools),
      usage: responsesUsageFromUsage(response.usage),
      error: outcome.error,
      incompleteDetails: outcome.incompleteDetails,
    },
    context,
  );
}
