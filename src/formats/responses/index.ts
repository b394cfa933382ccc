import type { ClientFormat } from '../client-format.js';
import { decodeResponsesRequest } from './decode-request.js';
import { encodeResponsesError, encodeResponsesStreamError } from './encode-error.js';
import { encodeResponsesResponse } from './encode-response.js';
import { createResponsesStreamEncoder } from './stream-encoder.js';
import { createResponsesUsageTap, usageFromResponsesBody } from './usage-tap.js';
import { responsesStreamEventCarriesText, responsesStreamEventText } from './stream-event-text.js';

export { responsesInputExtensionKey } from './decode-request.js';

/** OpenAI Responses as a client format (what Codex CLI speaks). */
export const responsesFormat: ClientFormat = {
  name: 'responses',
  inputTokensAtStreamStart: false,
  decodeRequest: decodeResponsesRequest,
  encodeResponse: encodeResponsesResponse,
  createStreamEncoder: createResponsesStreamEncoder,
  encodeError: encodeResponsesError,
  encodeStreamError: encodeResponsesStreamError,
  usageFromBody: usageFromResponsesBody,
  createUsageTap: createResponsesUsageTap,
  streamEventText: responsesStreamEventText,
  streamEventCarriesText: responsesStreamEventCarriesText,
};
