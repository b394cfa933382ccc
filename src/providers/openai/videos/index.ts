export { openAIVideoGeneration } from './openai-video-generation.js';
