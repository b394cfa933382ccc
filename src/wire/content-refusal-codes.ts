/**
 * Reasons Gemini gives for withholding output on content grounds. Kept here, not with Gemini's
 * wire types, because the OpenAI error shape every client format can meet must know them too.
 */
export const geminiContentFilterReasons: ReadonlySet<string> = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/**
 * Upstream codes that mean "refused on content grounds": OpenAI's (`moderation_blocked` from the
 * gpt-image models, `content_policy_violation` from dall-e), Azure's content filter refusing a
 * prompt (`content_filter`) and the reasons Google gives for a
 * withheld or blocked image. A client needs this exact code to tell a refusal from a malformed
 * request, so the OpenAI error shape shows it instead of the gateway's own code.
 */
export const contentRefusalCodes: ReadonlySet<string> = new Set(['moderation_blocked', 'content_policy_violation', 'content_filter', ...geminiContentFilterReasons]);
