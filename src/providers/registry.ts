import { anthropicAdapter } from './anthropic/index.js';
import { geminiAdapter } from './gemini/index.js';
import { createOpenAIChatAdapter } from './openai-chat/index.js';
import type { ProviderAdapter, ProviderKind } from './provider-adapter.js';

/** Every upstream kind the gateway can call. Adding one is one folder and one line here. */
export const providerAdapters: Record<ProviderKind, ProviderAdapter> = {
  openai: createOpenAIChatAdapter('openai'),
  'openai-compatible': createOpenAIChatAdapter('openai-compatible'),
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
};
