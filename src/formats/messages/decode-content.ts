import { blobFromClientValue } from '../../ir/client-blob.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { CacheControl, ContentPart, FilePart, ImagePart, TextPart, ToolResultPart } from '../../ir/index.js';
import {
  documentBlockSchema,
  imageBlockSchema,
  redactedThinkingBlockSchema,
  textBlockSchema,
  thinkingBlockSchema,
  toolResultBlockSchema,
  toolUseBlockSchema,
  type BlockInput,
} from './messages-request-schema.js';
import { messagesParam, parseOrThrow, type PathKey } from './parse-or-throw.js';

export type Role = 'user' | 'assistant' | 'system';

/** Block types each role may carry, as the Messages API accepts them. */
const allowedBlocks: Readonly<Record<Role, ReadonlySet<string>>> = {
  system: new Set(['text']),
  user: new Set(['text', 'image', 'document', 'tool_result']),
  assistant: new Set(['text', 'tool_use', 'thinking', 'redacted_thinking']),
};

/**
 * Blocks of server tools (server_tool_use, web_search_tool_result, mcp_tool_use, …) in assistant
 * history. Only the Anthropic upstream that ran the tool can read them and the IR has no slot for
 * them, so they are left out of the IR (a passthrough call still forwards the body unchanged).
 * Refusing them would break every server-tool conversation.
 */
function isServerToolBlock(type: string): boolean {
  return type === 'server_tool_use' || type === 'mcp_tool_use' || (type.endsWith('_tool_result') && type !== 'tool_result');
}

function cacheControlOf(value: { type: 'ephemeral'; ttl?: string | undefined } | null | undefined): { cacheControl?: CacheControl } {
  if (value === null || value === undefined) return {};
  return { cacheControl: value.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: value.ttl } };
}

function unsupportedBlock(type: string, role: Role, path: readonly PathKey[]): GatewayError {
  const param = messagesParam([...path, 'type']);
  return new GatewayError('unsupported_content', `${param}: content blocks of type '${type}' are not supported in ${role} turns.`, { param });
}

/**
 * One Messages content block as an IR part; undefined for a server-tool block (see above).
 * `path` locates the block (`['messages', 1, 'content', 0]`) for errors.
 */
export function decodeBlock(block: BlockInput, role: Role, path: readonly PathKey[]): ContentPart | undefined {
  if (role === 'assistant' && isServerToolBlock(block.type)) return undefined;
  if (!allowedBlocks[role].has(block.type)) throw unsupportedBlock(block.type, role, path);
  switch (block.type) {
    case 'text':
      return decodeText(block, path);
    case 'image':
    case 'document':
      return decodeMedia(block, path);
    case 'tool_use': {
      const toolUse = parseOrThrow(toolUseBlockSchema, block, path);
      return { type: 'tool-call', id: toolUse.id, name: toolUse.name, arguments: JSON.stringify(toolUse.input) };
    }
    case 'tool_result':
      return decodeToolResult(block, path);
    case 'thinking': {
      const thinking = parseOrThrow(thinkingBlockSchema, block, path);
      // An empty signature cannot be verified by anyone, so there is nothing to carry back.
      if (thinking.signature === '') return { type: 'reasoning', text: thinking.thinking };
      // A tag may name the provider's reasoning item (OpenAI's rs_…), which it needs back with the blob.
      const { blob, redacted, itemId } = blobFromClientValue(thinking.signature, 'anthropic');
      return { type: 'reasoning', text: thinking.thinking, blob, ...(redacted ? { redacted } : {}), ...(itemId === undefined ? {} : { itemId }) };
    }
    case 'redacted_thinking': {
      const redacted = parseOrThrow(redactedThinkingBlockSchema, block, path);
      return { type: 'reasoning', text: '', redacted: true, blob: blobFromClientValue(redacted.data, 'anthropic').blob };
    }
    default:
      throw unsupportedBlock(block.type, role, path);
  }
}

function decodeText(block: BlockInput, path: readonly PathKey[]): TextPart {
  const text = parseOrThrow(textBlockSchema, block, path);
  return { type: 'text', text: text.text, ...cacheControlOf(text.cache_control) };
}

/** Image and document blocks, the only media Messages takes (also inside tool results). */
function decodeMedia(block: BlockInput, path: readonly PathKey[]): ImagePart | FilePart {
  if (block.type === 'image') {
    const image = parseOrThrow(imageBlockSchema, block, path);
    const source = image.source;
    return {
      type: 'image',
      source:
        source.type === 'base64'
          ? { kind: 'base64', mediaType: source.media_type, data: source.data }
          : source.type === 'url'
            ? { kind: 'url', url: source.url }
            : { kind: 'file', fileId: source.file_id },
      ...cacheControlOf(image.cache_control),
    };
  }
  const document = parseOrThrow(documentBlockSchema, block, path);
  const source = document.source;
  return {
    type: 'file',
    source:
      source.type === 'base64'
        ? { kind: 'base64', mediaType: source.media_type, data: source.data }
        : source.type === 'text'
          ? { kind: 'text', mediaType: source.media_type, text: source.data }
          : source.type === 'url'
            ? { kind: 'url', url: source.url }
            : { kind: 'file', fileId: source.file_id },
    // The IR's filename is the only name a file has; Anthropic upstreams get it back as `title`.
    ...(typeof document.title === 'string' ? { filename: document.title } : {}),
    ...cacheControlOf(document.cache_control),
  };
}

const toolResultInnerBlocks: ReadonlySet<string> = new Set(['text', 'image', 'document']);

function decodeToolResult(block: BlockInput, path: readonly PathKey[]): ToolResultPart {
  const result = parseOrThrow(toolResultBlockSchema, block, path);
  let content: ToolResultPart['content'] = '';
  if (typeof result.content === 'string') content = result.content;
  else if (result.content !== undefined) {
    content = result.content.map((inner, index): TextPart | ImagePart | FilePart => {
      const innerPath = [...path, 'content', index];
      if (!toolResultInnerBlocks.has(inner.type)) {
        const param = messagesParam([...innerPath, 'type']);
        throw new GatewayError('invalid_field', `${param}: content blocks of type '${inner.type}' are not supported in tool results.`, { param });
      }
      return inner.type === 'text' ? decodeText(inner, innerPath) : decodeMedia(inner, innerPath);
    });
  }
  return {
    type: 'tool-result',
    callId: result.tool_use_id,
    content,
    ...(typeof result.is_error === 'boolean' ? { isError: result.is_error } : {}),
    ...cacheControlOf(result.cache_control),
  };
}
