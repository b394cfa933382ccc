import { GatewayError } from '../../errors/gateway-error.js';
import type { ContentPart, IrMessage, ReasoningPart, TextPart, ToolCallPart } from '../../ir/index.js';
import type { GeminiContent, GeminiRequestPart } from './wire/generate-content-request.js';
import { customToolInputKey } from './gemini-custom-tools.js';
import { fileToGemini, imageToGemini } from './gemini-media-parts.js';
import { parseJsonObject, toolResultToGemini } from './gemini-tool-result.js';
import { restoreCallSignatures } from './restore-call-signatures.js';

/**
 * Google's documented placeholder for a function call whose signature was lost or never existed
 * (history written by another model): Gemini 3 refuses a model turn whose first function call
 * has no `thoughtSignature` (400), and accepts this value instead.
 */
export const placeholderThoughtSignature = 'skip_thought_signature_validator';

export interface GeminiConversation {
  readonly contents: GeminiContent[];
  readonly systemParts: GeminiRequestPart[];
}

/**
 * IR messages → Gemini `contents` + `systemInstruction` parts. Every system turn goes to the
 * system instruction (Gemini has no mid-conversation system role); assistant turns become
 * `model`, tool turns become `user` turns of `functionResponse` parts; adjacent turns of the
 * same role are merged because Gemini expects user and model to alternate.
 */
export function buildGeminiConversation(
  messages: readonly IrMessage[],
  customTools: ReadonlySet<string>,
): GeminiConversation {
  const contents: GeminiContent[] = [];
  const systemParts: GeminiRequestPart[] = [];
  const toolNamesByCallId = new Map<string, string>();

  for (const message of messages) {
    if (message.role === 'system') {
      systemParts.push(...message.content.flatMap((part) => userPart(part, toolNamesByCallId)));
      continue;
    }
    const role = message.role === 'assistant' ? 'model' : 'user';
    const parts =
      role === 'model'
        ? restoreCallSignatures(message.content).flatMap((part) => modelPart(part, toolNamesByCallId, customTools))
        : message.content.flatMap((part) => userPart(part, toolNamesByCallId));
    // A turn left empty (e.g. only another provider's reasoning) is skipped: Gemini refuses empty parts.
    if (parts.length === 0) continue;
    const previous = contents[contents.length - 1];
    if (previous?.role === role) contents[contents.length - 1] = { role, parts: [...previous.parts, ...parts] };
    else contents.push({ role, parts });
  }
  return { contents: contents.map(ensureFirstCallSigned), systemParts };
}

function userPart(part: ContentPart, toolNamesByCallId: ReadonlyMap<string, string>): GeminiRequestPart[] {
  switch (part.type) {
    case 'text':
      return part.text === '' ? [] : [{ text: part.text }];
    case 'image':
      return [imageToGemini(part)];
    case 'file':
      return [fileToGemini(part)];
    case 'tool-result': {
      const name = part.name ?? toolNamesByCallId.get(part.callId);
      if (name === undefined) {
        throw new GatewayError(
          'invalid_request',
          `Tool result for call "${part.callId}" names no tool and matches no earlier tool call; Gemini needs the function name.`,
        );
      }
      return toolResultToGemini(part, name);
    }
    // Reasoning and tool calls have no meaning in a user turn.
    case 'reasoning':
    case 'tool-call':
      return [];
  }
}

function modelPart(
  part: ContentPart,
  toolNamesByCallId: Map<string, string>,
  customTools: ReadonlySet<string>,
): GeminiRequestPart[] {
  switch (part.type) {
    case 'text':
      return textPart(part);
    case 'reasoning':
      return reasoningPart(part);
    case 'tool-call':
      toolNamesByCallId.set(part.id, part.name);
      return [functionCallPart(part, customTools)];
    case 'image':
      return [imageToGemini(part)];
    case 'file':
      return [fileToGemini(part)];
    case 'tool-result':
      return [];
  }
}

function geminiSignature(blob: TextPart['blob']): string | undefined {
  return blob?.provider === 'gemini' ? blob.value : undefined;
}

function textPart(part: TextPart): GeminiRequestPart[] {
  const signature = geminiSignature(part.blob);
  if (signature !== undefined) return [{ text: part.text, thoughtSignature: signature }];
  return part.text === '' ? [] : [{ text: part.text }];
}

/**
 * Reasoning goes back only when Gemini minted it (signatures are bound to the provider that
 * made them; other providers' reasoning means nothing to Gemini and is dropped). An empty
 * reasoning part is the carrier of a signature that came on an empty text part (see
 * gemini-part-assembler.ts), so it is sent back as that same empty text part.
 */
function reasoningPart(part: ReasoningPart): GeminiRequestPart[] {
  const signature = geminiSignature(part.blob);
  if (signature === undefined) return [];
  if (part.text === '') return [{ text: '', thoughtSignature: signature }];
  return [{ thought: true, text: part.text, thoughtSignature: signature }];
}

function functionCallPart(part: ToolCallPart, customTools: ReadonlySet<string>): GeminiRequestPart {
  const args =
    part.kind === 'custom' || customTools.has(part.name)
      ? { [customToolInputKey]: part.arguments }
      : argumentsObject(part.arguments);
  const signature = geminiSignature(part.blob);
  const functionCall = { name: part.name, args, id: part.id };
  return signature === undefined ? { functionCall } : { functionCall, thoughtSignature: signature };
}

/**
 * Arguments are JSON text in the IR and an object for Gemini. Text that is not a JSON object
 * (a truncated call replayed by a client) is kept under `input` rather than refusing the history.
 */
function argumentsObject(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  return parseJsonObject(text) ?? { [customToolInputKey]: text };
}

function ensureFirstCallSigned(content: GeminiContent): GeminiContent {
  if (content.role !== 'model') return content;
  const firstCall = content.parts.findIndex((part) => part.functionCall !== undefined);
  const part = content.parts[firstCall];
  if (part === undefined || part.thoughtSignature !== undefined) return content;
  const parts = [...content.parts];
  parts[firstCall] = { ...part, thoughtSignature: placeholderThoughtSignature };
  return { role: content.role, parts };
}
