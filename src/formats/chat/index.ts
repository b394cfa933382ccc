import type { ClientFormat } from '../client-format.js';
import { decodeChatRequest } from './decode-request.js';
import { encodeOpenAIError, encodeOpenAIStreamError } from './encode-error.js';
import { encodeChatResponse } from './encode-response.js';
import { createChatStreamEncoder } from './stream-encoder.js';
import { createChatUsageTap, usageFromChatBody } from './usage-tap.js';
import { chatStreamEventCarriesText, chatStreamEventText } from './stream-event-text.js';

export { encodeOpenAIError, encodeOpenAIStreamError } from './encode-error.js';

/** OpenAI Chat Completions as a client format. */
export const chatFormat: ClientFormat = {
  name: 'chat',
  inputTokensAtStreamStart: false,
  decodeRequest: decodeChatRequest,
  encodeResponse: encodeChatResponse,
  createStreamEncoder: createChatStreamEncoder,
  encodeError: encodeOpenAIError,
  encodeStreamError: encodeOpenAIStreamError,
  usageFromBody: usageFromChatBody,
  createUsageTap: createChatUsageTap,
  streamEventText: chatStreamEventText,
  streamEventCarriesText: chatStreamEventCarriesText,
};
