export { createOpenAIChatAdapter, openAIResponsesAdapter } from './openai-adapters.js';
