export { createOpenAIImageGeneration } from './openai-image-generation.js';
