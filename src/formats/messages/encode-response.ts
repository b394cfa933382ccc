import { clientBlobValue } from '../../ir/client-blob.js';
import type { IrResponse, OutputPart, ProviderBlob } from '../../ir/index.js';
import type { JsonRecord } from '../../json/json-value.js';
import { isRecord, readArray, readNumber } from '../../json/json-value.js';
import {
  messagesUsageFromUsage,
  stopReasonFromFinish,
  toolInputFromArguments,
} from '../../wire/messages/index.js';
import type { MessagesResponseBlock, MessagesResponseBody, MessagesStopReason, MessagesThinkingBlock } from '../../wire/messages/index.js';
import type { EncodeContext } from '../client-format.js';
import { messageId } from './message-id.js';

/** What an Anthropic upstream's answer kept beside the IR (see MessagesResponseExtensions). */
interface KeptFromAnthropic {
  /** Server-tool blocks, each after the given number of IR parts. */
  readonly blocks: readonly { readonly after: number; readonly block: JsonRecord }[];
  readonly citations: ReadonlyMap<number, readonly unknown[]>;
  readonly fields: JsonRecord;
  readonly usage: JsonRecord;
}

function keptFromAnthropic(response: IrResponse): KeptFromAnthropic {
  const extensions = response.extensions?.['anthropic'] ?? {};
  const blocks: { after: number; block: JsonRecord }[] = [];
  for (const entry of readArray(extensions, 'content') ?? []) {
    if (!isRecord(entry)) continue;
    const after = readNumber(entry, 'after');
    const block = entry['block'];
    if (after !== undefined && isRecord(block)) blocks.push({ after, block });
  }
  const citations = new Map<number, readonly unknown[]>();
  for (const entry of readArray(extensions, 'citations') ?? []) {
    if (!isRecord(entry)) continue;
    const part = readNumber(entry, 'part');
    const list = readArray(entry, 'citations');
    if (part !== undefined && list !== undefined) citations.set(part, list);
  }
  const fields: Record<string, unknown> = {};
  for (const key of ['stop_details', 'container', 'context_management']) {
    if (extensions[key] !== undefined) fields[key] = extensions[key];
  }
  const usage = extensions['usage'];
  return { blocks, citations, fields, usage: isRecord(usage) ? usage : {} };
}

/**
 * Thinking blocks must carry a `signature`. Reasoning minted by another provider has no Anthropic
 * signature: its own opaque blob (if any) is handed out instead, because Messages clients echo the
 * block back verbatim and that brings the blob home; without one the field is an empty string,
 * which clients accept and which is never sent to an Anthropic upstream (the IR drops unsigned
 * thinking).
 */
function encodePart(part: OutputPart, citations: readonly unknown[] | undefined): MessagesResponseBlock | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text, ...(citations === undefined ? {} : { citations }) };
    case 'reasoning':
      if (part.redacted === true && part.blob?.provider === 'anthropic') return { type: 'redacted_thinking', data: part.blob.value };
      return {
        type: 'thinking',
        thinking: part.text,
        // An OpenAI blob goes back only inside its `rs_…` item, so the tag carries the item id.
        signature: part.blob === undefined ? '' : clientBlobValue(part.blob, 'anthropic', part.redacted === true, part.itemId),
      };
    case 'tool-call':
      return {
        type: 'tool_use',
        id: part.id,
        name: part.name,
        // A free-form (custom) call has raw text; Messages input must be an object.
        input: part.kind === 'custom' ? { input: part.arguments } : toolInputFromArguments(part.arguments),
      };
  }
}

/**
 * Gemini signs a function call itself (the thoughtSignature sits on the functionCall part, the IR
 * keeps it on the tool-call part), but a `tool_use` block has no slot for it. So a tool call
 * carrying another provider's blob is preceded by a thinking block with no text whose signature
 * is the tagged blob: clients echo it back verbatim, it decodes into an empty reasoning part right
 * before the call, and the Gemini adapter puts the signature back on the call
 * (gemini-contents.ts). Anthropic upstreams never see it (foreign reasoning is dropped). The
 * stream encoder does the same when the call's block starts (stream-encoder.ts).
 */
export function callBlobCarrier(blob: ProviderBlob | undefined): MessagesThinkingBlock | undefined {
  if (blob === undefined || blob.provider === 'anthropic') return undefined;
  return { type: 'thinking', thinking: '', signature: clientBlobValue(blob, 'anthropic') };
}

/** Some upstreams end a turn of tool calls with a plain "stop"; Messages clients look for tool_use. */
export function messagesStopReason(finish: IrResponse['finish'], hasToolCalls: boolean): MessagesStopReason {
  const stopReason = stopReasonFromFinish(finish);
  return hasToolCalls && stopReason === 'end_turn' ? 'tool_use' : stopReason;
}

/** The `message` object as the Messages API returns it. */
export function encodeMessagesResponse(response: IrResponse, context: EncodeContext): MessagesResponseBody {
  const kept = keptFromAnthropic(response);
  const content: MessagesResponseBlock[] = [];
  let nextKept = 0;
  const placeKeptBlocks = (before: number): void => {
    for (let entry = kept.blocks[nextKept]; entry !== undefined && entry.after <= before; entry = kept.blocks[nextKept]) {
      content.push(entry.block);
      nextKept += 1;
    }
  };
  response.content.forEach((part, index) => {
    placeKeptBlocks(index);
    const carrier = part.type === 'tool-call' ? callBlobCarrier(part.blob) : undefined;
    if (carrier !== undefined) content.push(carrier);
    const block = encodePart(part, kept.citations.get(index));
    if (block !== undefined) content.push(block);
  });
  placeKeptBlocks(Number.POSITIVE_INFINITY);

  const hasToolCalls = response.content.some((part) => part.type === 'tool-call');
  return {
    id: messageId(response.id, context.requestId),
    type: 'message',
    role: 'assistant',
    model: context.model,
    content,
    stop_reason: messagesStopReason(response.finish, hasToolCalls),
    stop_sequence: response.finish.stopSequence ?? null,
    ...kept.fields,
    // The upstream's own extras (service_tier, cache_creation, server_tool_use) under the IR figures.
    usage: { ...kept.usage, ...messagesUsageFromUsage(response.usage) },
  };
}
