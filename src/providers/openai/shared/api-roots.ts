import { apiRoot } from '../../api-root.js';

/** OpenAI's own API; its SDK takes the root with `/v1`. */
export const openAIApiRoot = apiRoot({ defaultBaseUrl: 'https://api.openai.com/v1', pathOnOrigin: '/v1', credentialRequired: true });

/** OpenAI-compatible servers run where the operator runs them, often without a credential. */
export const compatibleApiRoot = apiRoot({ pathOnOrigin: '/v1', credentialRequired: false });
