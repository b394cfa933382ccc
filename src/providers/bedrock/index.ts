export { bedrockApiRoot, bedrockRuntimeUrl } from './bedrock-api-root.js';
export { decodeBedrockError } from './bedrock-error.js';
export { readAnthropicEvents, readConverseEvents } from './bedrock-event-readers.js';
export { bedrockModelUrl } from './anthropic-on-bedrock.js';
export { authorizeBedrockCall, createClaudeOnBedrockAdapter } from './claude-on-bedrock-adapter.js';
export { converseOnBedrockAdapter } from './converse-on-bedrock-adapter.js';
export { isAnthropicModelId } from './anthropic-model-id.js';
export { bedrockImageFamily, imagesOnBedrockAdapter } from './images/index.js';
