import { isRecord } from '../../json/json-value.js';
import type { TokenCounting } from '../provider-adapter.js';
import { messagesUrl } from './upstream-headers.js';

/** `POST /v1/messages/count_tokens`: the exact count, free of charge, for a Messages body as it is. */
export const anthropicTokenCounting: TokenCounting = {
  nativeFormat: 'messages',
  countUrl: (target) => `${messagesUrl(target)}/count_tokens`,
  readInputTokens: (body) => (isRecord(body) && typeof body.input_tokens === 'number' ? body.input_tokens : undefined),
};
