import { GatewayError } from '../../../errors/gateway-error.js';
import type { ContentPart, FilePart, ImagePart, IrMessage, TextPart, ToolResultPart } from '../../../ir/index.js';
import type { ChatRequestContentPart, ChatRequestMessage, ChatTextContentPart, ChatToolCall } from '../../../wire/chat/chat-wire-types.js';

/** IR messages as chat messages; tool results become `tool` messages wherever they appear. */
export function encodeMessages(messages: readonly IrMessage[]): ChatRequestMessage[] {
  const encoded: ChatRequestMessage[] = [];
  for (const message of messages) {
    const results = message.content.filter((part): part is ToolResultPart => part.type === 'tool-result');
    const rest = message.content.filter((part) => part.type !== 'tool-result');
    if (message.role === 'system') {
      encoded.push(withName({ role: message.developer ? 'developer' : 'system', content: textContent(rest) }, message.name));
    } else if (message.role === 'assistant') {
      encoded.push(encodeAssistant(rest, message.name));
    } else if (rest.length > 0 || (message.role === 'user' && results.length === 0)) {
      encoded.push(withName({ role: 'user', content: userContent(rest) }, message.name));
    }
    encoded.push(...encodeToolResults(results));
  }
  return encoded;
}

function encodeAssistant(parts: readonly ContentPart[], name: string | undefined): ChatRequestMessage {
  let text: string | undefined;
  const toolCalls: ChatToolCall[] = [];
  for (const part of parts) {
    if (part.type === 'text') text = (text ?? '') + part.text;
    else if (part.type === 'tool-call') {
      toolCalls.push(
        part.kind === 'custom'
          ? { id: part.id, type: 'custom', custom: { name: part.name, input: part.arguments } }
          : { id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments === '' ? '{}' : part.arguments } },
      );
    }
    // Reasoning parts are dropped: chat upstreams (DeepSeek, xAI) do not take reasoning back.
  }
  const message: ChatRequestMessage = {
    role: 'assistant',
    content: text ?? (toolCalls.length > 0 ? null : ''),
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  return withName(message, name);
}

/**
 * Chat `tool` messages take text only; images a tool returned follow in one user message so the
 * model still sees them.
 */
function encodeToolResults(results: readonly ToolResultPart[]): ChatRequestMessage[] {
  const toolMessages: ChatRequestMessage[] = [];
  const media: (ImagePart | FilePart)[] = [];
  for (const result of results) {
    if (typeof result.content === 'string') {
      toolMessages.push({ role: 'tool', tool_call_id: result.callId, content: result.content });
      continue;
    }
    const texts = result.content.filter((part): part is TextPart => part.type === 'text');
    media.push(...result.content.filter((part): part is ImagePart | FilePart => part.type !== 'text'));
    toolMessages.push({ role: 'tool', tool_call_id: result.callId, content: texts.length === 1 && texts[0] ? texts[0].text : texts.map(textPart) });
  }
  if (media.length > 0) toolMessages.push({ role: 'user', content: media.map(mediaPart) });
  return toolMessages;
}

function textContent(parts: readonly ContentPart[]): string | ChatTextContentPart[] {
  const texts = parts.filter((part): part is TextPart => part.type === 'text');
  const only = texts[0];
  return texts.length === 1 && only !== undefined ? only.text : texts.map(textPart);
}

function userContent(parts: readonly ContentPart[]): string | ChatRequestContentPart[] {
  const only = parts[0];
  if (parts.length === 1 && only?.type === 'text') return only.text;
  const encoded: ChatRequestContentPart[] = [];
  for (const part of parts) {
    if (part.type === 'text') encoded.push(textPart(part));
    else if (part.type === 'image' || part.type === 'file') encoded.push(mediaPart(part));
    // Reasoning and tool calls cannot appear in a chat user turn; only assistant turns carry them.
  }
  return encoded;
}

function textPart(part: TextPart): ChatTextContentPart {
  return { type: 'text', text: part.text };
}

function mediaPart(part: ImagePart | FilePart): ChatRequestContentPart {
  if (part.type === 'image') {
    const source = part.source;
    if (source.kind === 'file') return { type: 'file', file: { file_id: source.fileId } };
    const url = source.kind === 'url' ? source.url : `data:${source.mediaType};base64,${source.data}`;
    return { type: 'image_url', image_url: { url, ...(part.detail === undefined ? {} : { detail: part.detail }) } };
  }
  const source = part.source;
  const filename = part.filename === undefined ? {} : { filename: part.filename };
  switch (source.kind) {
    case 'file':
      return { type: 'file', file: { file_id: source.fileId, ...filename } };
    case 'text':
      return { type: 'text', text: source.text };
    case 'base64': {
      const audioFormat = audioFormatFor(source.mediaType);
      if (audioFormat !== undefined) return { type: 'input_audio', input_audio: { data: source.data, format: audioFormat } };
      if (source.mediaType.startsWith('image/')) {
        return { type: 'image_url', image_url: { url: `data:${source.mediaType};base64,${source.data}` } };
      }
      return { type: 'file', file: { file_data: `data:${source.mediaType};base64,${source.data}`, ...filename } };
    }
    case 'url':
      throw new GatewayError('unsupported_combination', 'Chat Completions upstreams do not accept files by URL; send the file inline as base64.');
  }
}

function audioFormatFor(mediaType: string): string | undefined {
  if (mediaType === 'audio/mpeg' || mediaType === 'audio/mp3') return 'mp3';
  if (mediaType === 'audio/wav' || mediaType === 'audio/x-wav') return 'wav';
  return undefined;
}

function withName(message: ChatRequestMessage, name: string | undefined): ChatRequestMessage {
  return name === undefined || message.role === 'tool' ? message : { ...message, name };
}
