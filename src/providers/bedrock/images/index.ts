export { imagesOnBedrockAdapter } from './images-on-bedrock-adapter.js';
export { bedrockImageFamily, type BedrockImageFamily } from './bedrock-image-model.js';
