export { bedrockRuntimeUrl } from './bedrock-api-root.js';
export { createClaudeOnBedrockAdapter } from './claude-on-bedrock-adapter.js';
export { isAnthropicModelId } from './anthropic-model-id.js';
