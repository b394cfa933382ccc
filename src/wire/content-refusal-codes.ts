import { geminiContentFilterReasons } from './gemini/gemini-finish-reason.js';

/**
 * Upstream codes that mean "refused on content grounds": OpenAI's (`moderation_blocked` from the
 * gpt-image models, `content_policy_violation` from dall-e) and the reasons Google gives for a
 * withheld or blocked image. A client needs this exact code to tell a refusal from a malformed
 * request, so the OpenAI error shape shows it instead of the gateway's own code.
 */
export const contentRefusalCodes: ReadonlySet<string> = new Set(['moderation_blocked', 'content_policy_violation', ...geminiContentFilterReasons]);
