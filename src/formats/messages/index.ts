import type { ClientFormat } from '../client-format.js';
import { decodeMessagesRequest } from './decode-request.js';
import { encodeMessagesError, encodeMessagesStreamError } from './encode-error.js';
import { encodeMessagesResponse } from './encode-response.js';
import { createMessagesStreamEncoder } from './stream-encoder.js';
import { createMessagesUsageTap, usageFromMessagesBody } from './usage-tap.js';
import { messagesStreamEventCarriesText, messagesStreamEventText } from './stream-event-text.js';

export { decodeMessagesCountTokensRequest } from './decode-request.js';
export { encodeMessagesError, encodeMessagesStreamError } from './encode-error.js';

/** Anthropic Messages as a client format (Claude Code, `@anthropic-ai/sdk`). */
export const messagesFormat: ClientFormat = {
  name: 'messages',
  inputTokensAtStreamStart: true,
  decodeRequest: decodeMessagesRequest,
  encodeResponse: encodeMessagesResponse,
  createStreamEncoder: createMessagesStreamEncoder,
  encodeError: encodeMessagesError,
  encodeStreamError: encodeMessagesStreamError,
  usageFromBody: usageFromMessagesBody,
  createUsageTap: createMessagesUsageTap,
  streamEventText: messagesStreamEventText,
  streamEventCarriesText: messagesStreamEventCarriesText,
};
