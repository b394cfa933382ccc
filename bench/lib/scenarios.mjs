// The scenario table. Each scenario is measured on three targets in the same run:
//   direct     the fake upstream itself, in the client's own wire format (the baseline)
//   nodeproxy  bench/lib/node-proxy.mjs in front of it (the floor for a Node gateway)
//   gateway    Switchyard, configured by bench/switchyard-bench.yaml
// A translated scenario's baselines use the client's format natively (a messages client talking to
// an Anthropic upstream directly), so the ratio shows what translation costs that client.
import { bigChatBody, bigMessagesBody, chatBody, imageBody, messagesBody, responsesBody } from './bodies.mjs';

export const chatModel = 'gpt-4o-mini';
export const claudeModel = 'claude-3-5-haiku-20241022';
/** The gateway's image model (bench/switchyard-bench.yaml) and the upstream model it routes to. */
export const gatewayImageModel = 'bench-image';
export const upstreamImageModel = 'gpt-image-1';

const chatPath = '/v1/chat/completions';
const messagesPath = '/v1/messages';
const responsesPath = '/v1/responses';
const imagesPath = '/v1/images/generations';

/** Body name → body text. Written to files once per run. */
export function buildBodies(slowDelayMs) {
  const slow = `bench-delay-${slowDelayMs}`;
  return {
    chat: chatBody(chatModel, false),
    chat_stream: chatBody(chatModel, true),
    chat_claude: chatBody(claudeModel, false),
    chat_claude_stream: chatBody(claudeModel, true),
    messages_native: messagesBody(claudeModel, false),
    messages_native_stream: messagesBody(claudeModel, true),
    messages_gpt: messagesBody(chatModel, false),
    messages_gpt_stream: messagesBody(chatModel, true),
    responses_claude_stream: responsesBody(claudeModel, true),
    big_chat: bigChatBody(chatModel, false),
    big_chat_claude: bigChatBody(claudeModel, false),
    big_messages_native: bigMessagesBody(claudeModel, false),
    big_messages_gpt: bigMessagesBody(chatModel, false),
    slow_chat_stream: chatBody(chatModel, true, slow),
    slow_chat_claude_stream: chatBody(claudeModel, true, slow),
    slow_messages_gpt_stream: messagesBody(chatModel, true, slow),
    images_gateway: imageBody(gatewayImageModel),
    images_gpt_image: imageBody(upstreamImageModel),
  };
}

/**
 * @typedef {'chat'|'messages'|'responses'|'images'} ClientFormat
 * @typedef {{ path: string, body: string, format: ClientFormat }} Request
 * @typedef {{ name: string, group: 'passthrough'|'translated'|'large'|'images_b64', title: string, tool: 'wrk'|'stream',
 *             connections: number, gateway: Request, baseline: Request, minEvents?: number, optIn?: boolean }} Scenario
 */

const chat = (body) => ({ path: chatPath, body, format: /** @type {const} */ ('chat') });
const messages = (body) => ({ path: messagesPath, body, format: /** @type {const} */ ('messages') });
const responses = (body) => ({ path: responsesPath, body, format: /** @type {const} */ ('responses') });
const images = (body) => ({ path: imagesPath, body, format: /** @type {const} */ ('images') });

/** @returns {Scenario[]} */
export function scenarios({ concurrency, streamConcurrency, streamChunks }) {
  const full = streamChunks; // passthrough relays every upstream event (+ the end marker)
  const translated = streamChunks - 5; // translation regroups events; at least this many arrive
  return [
    // (a) chat passthrough
    { name: `chat_c${concurrency}`, group: 'passthrough', title: 'chat → chat upstream (passthrough)', tool: 'wrk', connections: concurrency, gateway: chat('chat'), baseline: chat('chat') },
    { name: 'chat_c1', group: 'passthrough', title: 'chat → chat upstream (passthrough)', tool: 'wrk', connections: 1, gateway: chat('chat'), baseline: chat('chat') },
    // (b) chat passthrough, streamed
    { name: 'chat_stream', group: 'passthrough', title: 'chat → chat upstream (passthrough), stream', tool: 'stream', connections: streamConcurrency, gateway: chat('chat_stream'), baseline: chat('chat_stream'), minEvents: full },
    { name: `messages_passthrough_c${concurrency}`, group: 'passthrough', title: 'messages → Anthropic upstream (passthrough)', tool: 'wrk', connections: concurrency, gateway: messages('messages_native'), baseline: messages('messages_native') },
    // (c) messages client → chat upstream, translated
    { name: `messages_c${concurrency}`, group: 'translated', title: 'messages → chat upstream (translated)', tool: 'wrk', connections: concurrency, gateway: messages('messages_gpt'), baseline: messages('messages_native') },
    { name: 'messages_c1', group: 'translated', title: 'messages → chat upstream (translated)', tool: 'wrk', connections: 1, gateway: messages('messages_gpt'), baseline: messages('messages_native') },
    { name: 'messages_stream', group: 'translated', title: 'messages → chat upstream (translated), stream', tool: 'stream', connections: streamConcurrency, gateway: messages('messages_gpt_stream'), baseline: messages('messages_native_stream'), minEvents: translated },
    // chat client → Anthropic upstream (the translated path that exists today)
    { name: `chat_to_anthropic_c${concurrency}`, group: 'translated', title: 'chat → Anthropic upstream (translated)', tool: 'wrk', connections: concurrency, gateway: chat('chat_claude'), baseline: chat('chat') },
    { name: 'chat_to_anthropic_c1', group: 'translated', title: 'chat → Anthropic upstream (translated)', tool: 'wrk', connections: 1, gateway: chat('chat_claude'), baseline: chat('chat') },
    { name: 'chat_to_anthropic_stream', group: 'translated', title: 'chat → Anthropic upstream (translated), stream', tool: 'stream', connections: streamConcurrency, gateway: chat('chat_claude_stream'), baseline: chat('chat_stream'), minEvents: translated },
    // (d) responses client → Anthropic upstream, streamed (baseline: the Anthropic stream direct)
    { name: 'responses_stream', group: 'translated', title: 'responses → Anthropic upstream (translated), stream', tool: 'stream', connections: streamConcurrency, gateway: responses('responses_claude_stream'), baseline: messages('messages_native_stream'), minEvents: translated },
    // (e) a 500 KB coding-agent request
    { name: 'big_chat_c1', group: 'large', title: '500 KB chat → chat upstream (passthrough)', tool: 'wrk', connections: 1, gateway: chat('big_chat'), baseline: chat('big_chat') },
    { name: 'big_chat_c8', group: 'large', title: '500 KB chat → chat upstream (passthrough)', tool: 'wrk', connections: 8, gateway: chat('big_chat'), baseline: chat('big_chat') },
    { name: 'big_messages_c1', group: 'large', title: '500 KB messages → chat upstream (translated)', tool: 'wrk', connections: 1, gateway: messages('big_messages_gpt'), baseline: messages('big_messages_native') },
    { name: 'big_messages_c8', group: 'large', title: '500 KB messages → chat upstream (translated)', tool: 'wrk', connections: 8, gateway: messages('big_messages_gpt'), baseline: messages('big_messages_native') },
    { name: 'big_chat_to_anthropic_c1', group: 'large', title: '500 KB chat → Anthropic upstream (translated)', tool: 'wrk', connections: 1, gateway: chat('big_chat_claude'), baseline: chat('big_chat') },
    { name: 'big_chat_to_anthropic_c8', group: 'large', title: '500 KB chat → Anthropic upstream (translated)', tool: 'wrk', connections: 8, gateway: chat('big_chat_claude'), baseline: chat('big_chat') },
    // (h) image generation answered in base64: one 1024×1024 PNG of ≈1.55 MB, ≈2.07 MB of base64 in JSON.
    // Opt-in (SCENARIOS=images_b64): not part of a default run, whose later stages it would inflate.
    { name: 'images_b64_c1', group: 'images_b64', title: 'image generation, 2 MB b64_json answer', tool: 'wrk', connections: 1, gateway: images('images_gateway'), baseline: images('images_gpt_image'), optIn: true },
    { name: 'images_b64_c16', group: 'images_b64', title: 'image generation, 2 MB b64_json answer', tool: 'wrk', connections: 16, gateway: images('images_gateway'), baseline: images('images_gpt_image'), optIn: true },
  ];
}

/** (f) the slow streams held open together: passthrough, then the translated paths. */
export function slowStreamCases() {
  return [
    { name: 'passthrough', title: 'chat → chat upstream (passthrough)', request: chat('slow_chat_stream') },
    { name: 'translated_messages', title: 'messages → chat upstream (translated)', request: messages('slow_messages_gpt_stream') },
    { name: 'translated_chat_to_anthropic', title: 'chat → Anthropic upstream (translated)', request: chat('slow_chat_claude_stream') },
  ];
}
