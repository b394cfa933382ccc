/**
 * The Bedrock image models the gateway speaks to, by the route's model id: Amazon Nova Canvas and
 * Stability AI's models. A cross-region profile (`us.`) or a foundation model's ARN still names them.
 */
export type BedrockImageFamily = 'nova-canvas' | 'stability';

export function bedrockImageFamily(model: string): BedrockImageFamily | undefined {
  if (/(^|[./])amazon\.nova-canvas-/.test(model)) return 'nova-canvas';
  if (/(^|[./])stability\./.test(model)) return 'stability';
  return undefined;
}
