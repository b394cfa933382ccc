/**
 * Whether a Bedrock model id names an Anthropic model: a foundation model id
 * (`anthropic.claude-…`), a cross-region inference profile (`us.anthropic.claude-…`,
 * `global.anthropic…`) or a foundation model's ARN (`…:foundation-model/anthropic.claude-…`).
 * Those are called through InvokeModel with the Messages body; an application inference profile's
 * ARN does not say which model it routes to, so it is not taken for Claude.
 */
export function isAnthropicModelId(model: string): boolean {
  return /(?:^|[./])anthropic\./.test(model);
}
