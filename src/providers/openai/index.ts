export { createOpenAIChatAdapter, openAIResponsesAdapter } from './openai-adapters.js';
export { createAzureAdapter } from './azure/azure-adapter.js';
