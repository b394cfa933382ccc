import { GatewayError } from '../../errors/gateway-error.js';
import type {
  CacheControl,
  FilePart,
  ImagePart,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from '../../ir/index.js';
import { isRecord, parseJson } from '../../json/json-value.js';
import type {
  MessagesCacheControl,
  MessagesDocumentBlock,
  MessagesImageBlock,
  MessagesImageSource,
  MessagesRedactedThinkingBlock,
  MessagesTextBlock,
  MessagesThinkingBlock,
  MessagesToolResultBlock,
  MessagesToolUseBlock,
} from '../../wire/messages/index.js';

function cacheControlOf(cacheControl: CacheControl | undefined): { cache_control?: MessagesCacheControl } {
  if (cacheControl === undefined) return {};
  return { cache_control: cacheControl.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: cacheControl.ttl } };
}

/** Messages tool ids must match `^[a-zA-Z0-9_-]+$`; ids minted elsewhere are made to fit, the same way on both sides. */
export function messagesToolId(id: string): string {
  const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned === '' ? 'toolu_empty' : cleaned;
}

/** Empty text blocks are rejected by Messages and carry nothing, so they are left out (undefined). */
export function encodeText(part: TextPart): MessagesTextBlock | undefined {
  if (part.text === '') return undefined;
  return { type: 'text', text: part.text, ...cacheControlOf(part.cacheControl) };
}

interface DataUrl {
  readonly mediaType: string;
  readonly data: string;
}

/** Clients may hand images over as `data:` URLs, which Messages only takes as base64 sources. */
function parseBase64DataUrl(url: string): DataUrl | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (match === null || match[1] === undefined || match[2] === undefined) return undefined;
  return { mediaType: match[1], data: match[2] };
}

function imageSourceFromUrl(url: string): MessagesImageSource {
  const dataUrl = parseBase64DataUrl(url);
  return dataUrl === undefined ? { type: 'url', url } : { type: 'base64', media_type: dataUrl.mediaType, data: dataUrl.data };
}

export function encodeImage(part: ImagePart): MessagesImageBlock {
  const source = part.source;
  const encoded: MessagesImageSource =
    source.kind === 'url'
      ? imageSourceFromUrl(source.url)
      : source.kind === 'base64'
        ? { type: 'base64', media_type: source.mediaType, data: source.data }
        : { type: 'file', file_id: source.fileId };
  return { type: 'image', source: encoded, ...cacheControlOf(part.cacheControl) };
}

function unsupportedFile(mediaType: string, param: string): GatewayError {
  return new GatewayError(
    'unsupported_combination',
    `Files of type ${mediaType} cannot be sent to this model; it accepts PDF, plain text and images.`,
    { param },
  );
}

function documentFromBase64(mediaType: string, data: string, param: string): MessagesDocumentBlock['source'] {
  if (mediaType === 'application/pdf') return { type: 'base64', media_type: 'application/pdf', data };
  // Messages takes text documents as plain text only, so base64 text files are decoded here.
  if (mediaType.startsWith('text/')) {
    return { type: 'text', media_type: 'text/plain', data: Buffer.from(data, 'base64').toString('utf8') };
  }
  throw unsupportedFile(mediaType, param);
}

export function encodeFile(part: FilePart, param: string): MessagesDocumentBlock | MessagesImageBlock {
  const source = part.source;
  const cache = cacheControlOf(part.cacheControl);
  if (source.kind === 'base64' && source.mediaType.startsWith('image/')) {
    // An image sent as a generic file is still an image to Messages.
    return { type: 'image', source: { type: 'base64', media_type: source.mediaType, data: source.data }, ...cache };
  }
  let documentSource: MessagesDocumentBlock['source'];
  if (source.kind === 'url') {
    const dataUrl = parseBase64DataUrl(source.url);
    documentSource = dataUrl === undefined ? { type: 'url', url: source.url } : documentFromBase64(dataUrl.mediaType, dataUrl.data, param);
  } else if (source.kind === 'base64') {
    documentSource = documentFromBase64(source.mediaType, source.data, param);
  } else if (source.kind === 'text') {
    documentSource = { type: 'text', media_type: 'text/plain', data: source.text };
  } else {
    documentSource = { type: 'file', file_id: source.fileId };
  }
  return {
    type: 'document',
    source: documentSource,
    ...(part.filename === undefined ? {} : { title: part.filename }),
    ...cache,
  };
}

/**
 * Tool-call arguments are JSON text in the IR but an object in Messages. Text that is not a JSON
 * object is refused rather than replaced by `{}`: silently sending different arguments would
 * rewrite the conversation history the model reasons over.
 */
export function encodeToolCall(part: ToolCallPart, param: string): MessagesToolUseBlock {
  const id = messagesToolId(part.id);
  if (part.kind === 'custom') return { type: 'tool_use', id, name: part.name, input: { input: part.arguments } };
  if (part.arguments.trim() === '') return { type: 'tool_use', id, name: part.name, input: {} };
  const input = parseJson(part.arguments);
  if (!isRecord(input)) {
    throw new GatewayError(
      'invalid_request',
      `The arguments of tool call ${part.id} (${part.name}) are not a JSON object, which this model requires.`,
      { param },
    );
  }
  return { type: 'tool_use', id, name: part.name, input };
}

/**
 * Thinking is replayed only when Anthropic minted its signature: signatures are bound to the
 * provider that produced them, and reasoning from any other provider would be rejected (or, without
 * a signature, cannot be sent at all), so it is left out of the history.
 */
export function encodeReasoning(part: ReasoningPart): MessagesThinkingBlock | MessagesRedactedThinkingBlock | undefined {
  if (part.blob?.provider !== 'anthropic') return undefined;
  if (part.redacted === true) return { type: 'redacted_thinking', data: part.blob.value };
  return { type: 'thinking', thinking: part.text, signature: part.blob.value };
}

export function encodeToolResult(part: ToolResultPart, param: string): MessagesToolResultBlock {
  const content: MessagesToolResultBlock['content'] =
    typeof part.content === 'string'
      ? part.content
      : part.content.flatMap((inner): (MessagesTextBlock | MessagesImageBlock | MessagesDocumentBlock)[] => {
          if (inner.type === 'text') {
            const block = encodeText(inner);
            return block === undefined ? [] : [block];
          }
          return [inner.type === 'image' ? encodeImage(inner) : encodeFile(inner, param)];
        });
  return {
    type: 'tool_result',
    tool_use_id: messagesToolId(part.callId),
    content,
    ...(part.isError === true ? { is_error: true } : {}),
    ...cacheControlOf(part.cacheControl),
  };
}
