import type { UpstreamWire } from './matrix-recordings.js';

/** What a conversation's history looks like in the body the upstream received, in its own terms. */
export interface UpstreamHistory {
  /** Tool calls echoed in assistant / model turns. */
  readonly toolCalls: readonly { readonly id?: string; readonly name: string; readonly signature?: string }[];
  /** Tool results in the wire's native shape. */
  readonly toolResults: readonly { readonly callId?: string; readonly name?: string }[];
  /** Opaque reasoning values in the wire's native slots. */
  readonly reasoningBlobs: readonly string[];
  /** Thinking blocks sent to Anthropic (or Converse reasoning) with an empty signature (both reject those). */
  readonly unsignedThinking: number;
  /** Gemini function calls sent with Google's documented stand-in instead of their own signature. */
  readonly signatureStandIns: number;
}

/** The value Gemini accepts in place of a thought signature that was lost (Gemini 3 requires one on calls). */
export const geminiSignatureStandIn = 'skip_thought_signature_validator';

type Json = Record<string, unknown>;

function records(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((entry): entry is Json => typeof entry === 'object' && entry !== null && !Array.isArray(entry)) : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function readUpstreamHistory(wire: UpstreamWire, bodyText: string): UpstreamHistory {
  const body = JSON.parse(bodyText) as Json;
  const history = { toolCalls: [] as UpstreamHistory['toolCalls'][number][], toolResults: [] as UpstreamHistory['toolResults'][number][], reasoningBlobs: [] as string[], unsignedThinking: 0, signatureStandIns: 0 };
  switch (wire) {
    case 'chat':
      for (const message of records(body.messages)) {
        for (const call of records(message.tool_calls)) {
          const fn = (call.function ?? {}) as Json;
          history.toolCalls.push({ id: text(call.id), name: text(fn.name) ?? '' });
        }
        if (message.role === 'tool') history.toolResults.push({ callId: text(message.tool_call_id) });
      }
      break;
    case 'responses':
      for (const item of records(body.input)) {
        if (item.type === 'function_call') history.toolCalls.push({ id: text(item.call_id), name: text(item.name) ?? '' });
        if (item.type === 'function_call_output') history.toolResults.push({ callId: text(item.call_id) });
        if (item.type === 'reasoning' && typeof item.encrypted_content === 'string') history.reasoningBlobs.push(item.encrypted_content);
      }
      break;
    case 'anthropic':
      for (const message of records(body.messages)) {
        for (const block of records(message.content)) {
          if (block.type === 'tool_use') history.toolCalls.push({ id: text(block.id), name: text(block.name) ?? '' });
          if (block.type === 'tool_result') history.toolResults.push({ callId: text(block.tool_use_id) });
          if (block.type === 'thinking') {
            if (text(block.signature)) history.reasoningBlobs.push(text(block.signature)!);
            else history.unsignedThinking += 1;
          }
          if (block.type === 'redacted_thinking' && typeof block.data === 'string') history.reasoningBlobs.push(block.data);
        }
      }
      break;
    case 'converse':
      for (const message of records(body.messages)) {
        for (const block of records(message.content)) {
          const call = block.toolUse as Json | undefined;
          if (call !== undefined) history.toolCalls.push({ id: text(call.toolUseId), name: text(call.name) ?? '' });
          const result = block.toolResult as Json | undefined;
          if (result !== undefined) history.toolResults.push({ callId: text(result.toolUseId) });
          const reasoning = block.reasoningContent as Json | undefined;
          if (reasoning === undefined) continue;
          const signed = reasoning.reasoningText as Json | undefined;
          if (signed !== undefined && text(signed.signature)) history.reasoningBlobs.push(text(signed.signature)!);
          else if (signed !== undefined) history.unsignedThinking += 1;
          if (typeof reasoning.redactedContent === 'string') history.reasoningBlobs.push(reasoning.redactedContent);
        }
      }
      break;
    case 'gemini':
      for (const content of records(body.contents)) {
        for (const part of records(content.parts)) {
          const signature = text(part.thoughtSignature);
          if (signature === geminiSignatureStandIn) history.signatureStandIns += 1;
          else if (signature !== undefined) history.reasoningBlobs.push(signature);
          const call = part.functionCall as Json | undefined;
          if (call !== undefined) history.toolCalls.push({ id: text(call.id), name: text(call.name) ?? '', ...(signature ? { signature } : {}) });
          const result = part.functionResponse as Json | undefined;
          if (result !== undefined) history.toolResults.push({ callId: text(result.id), name: text(result.name) });
        }
      }
      break;
  }
  return history;
}
