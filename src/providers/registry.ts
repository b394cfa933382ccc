import { anthropicAdapter } from './anthropic/index.js';
import { geminiAdapter } from './gemini/index.js';
import { createOpenAIChatAdapter } from './openai-chat/index.js';
import { openAIResponsesAdapter } from './openai-responses/index.js';
import type { ProviderAdapter, UpstreamTarget } from './provider-adapter.js';

const compatibleChat = createOpenAIChatAdapter('openai-compatible');

/**
 * OpenAI itself serves both of its formats, so chat and Responses clients pass through; other
 * clients are translated to Responses, which carries encrypted reasoning across turns.
 */
const openAI: ProviderAdapter = { ...openAIResponsesAdapter, nativeFormats: ['chat', 'responses'] };

/** A compatible server that says it serves the Responses API too (`responses: true`). */
const compatibleWithResponses: ProviderAdapter = { ...compatibleChat, nativeFormats: ['chat', 'responses'] };

/** The adapter for one upstream. Adding an upstream kind is one folder and one case here. */
export function adapterFor(target: UpstreamTarget): ProviderAdapter {
  switch (target.kind) {
    case 'openai':
      return openAI;
    case 'openai-compatible':
      return target.servesResponses === true ? compatibleWithResponses : compatibleChat;
    case 'anthropic':
      return anthropicAdapter;
    case 'gemini':
      return geminiAdapter;
  }
}
