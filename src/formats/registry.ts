import { chatFormat } from './chat/index.js';
import type { FormatName } from '../ir/format-name.js';
import type { ClientFormat } from './client-format.js';
import { messagesFormat } from './messages/index.js';
import { responsesFormat } from './responses/index.js';

/** Every client wire format the gateway serves. Adding one is one folder and one line here. */
export const clientFormats: Partial<Record<FormatName, ClientFormat>> = {
  chat: chatFormat,
  messages: messagesFormat,
  responses: responsesFormat,
};
