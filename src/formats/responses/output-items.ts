import type { IrTool, OutputPart, ProviderBlob } from '../../ir/index.js';
import { splitToolName } from '../../wire/responses/namespaced-tool.js';
import { clientBlobValue } from '../../ir/client-blob.js';
import type {
  ResponsesCustomToolCallItem,
  ResponsesFunctionCallItem,
  ResponsesItemStatus,
  ResponsesMessageItem,
  ResponsesOutputItem,
  ResponsesOutputText,
  ResponsesReasoningItem,
} from '../../wire/responses/responses-wire-types.js';
import { outputItemId } from './response-ids.js';

export function outputText(text: string): ResponsesOutputText {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

export function messageItem(id: string, text: string | undefined, status: ResponsesItemStatus): ResponsesMessageItem {
  return { type: 'message', id, role: 'assistant', status, content: text === undefined ? [] : [outputText(text)] };
}

/** A reasoning item; the summary is empty when there was no visible reasoning (encrypted only). */
export function reasoningItem(id: string, text: string, blob: ProviderBlob | undefined, redacted: boolean): ResponsesReasoningItem {
  return {
    type: 'reasoning',
    id,
    summary: text === '' ? [] : [{ type: 'summary_text', text }],
    ...(blob === undefined ? {} : { encrypted_content: clientBlobValue(blob, 'openai', redacted) }),
  };
}

export interface CallFacts {
  readonly id: string;
  readonly callId: string;
  /** The IR name (a flattened namespaced function is split again here). */
  readonly name: string;
  readonly custom: boolean;
  readonly text: string;
  readonly status: ResponsesItemStatus;
}

export function callItem(facts: CallFacts, tools: readonly IrTool[] | undefined): ResponsesFunctionCallItem | ResponsesCustomToolCallItem {
  const { name, namespace } = splitToolName(facts.name, tools);
  const withNamespace = namespace === undefined ? {} : { namespace };
  if (facts.custom) {
    return { type: 'custom_tool_call', id: facts.id, call_id: facts.callId, name, input: facts.text, status: facts.status, ...withNamespace };
  }
  return { type: 'function_call', id: facts.id, call_id: facts.callId, name, arguments: facts.text, status: facts.status, ...withNamespace };
}

/**
 * Gemini signs a function call itself (the thoughtSignature sits on the functionCall part, the IR
 * keeps it on the tool-call part), but a `function_call` item has no slot for it. So a tool call
 * carrying another provider's blob is preceded by a reasoning item with an empty summary whose
 * `encrypted_content` is the tagged blob: clients echo it back verbatim, it decodes into an empty
 * reasoning part right before the call, and the Gemini adapter puts the signature back on the call
 * (gemini-contents.ts). OpenAI upstreams never see it (foreign reasoning is dropped). The stream
 * encoder does the same when the call's block starts (stream-encoder.ts).
 */
export function carriesForeignCallBlob(blob: ProviderBlob | undefined): blob is ProviderBlob {
  return blob !== undefined && blob.provider !== 'openai';
}

/**
 * IR output parts as Responses output items, in order. Adjacent text parts form one message;
 * reasoning with neither text nor blob has nothing to show or echo and is left out.
 */
export function outputItems(parts: readonly OutputPart[], responseIdentifier: string, tools: readonly IrTool[] | undefined): ResponsesOutputItem[] {
  const items: ResponsesOutputItem[] = [];
  let message: ResponsesMessageItem | undefined;
  for (const part of parts) {
    if (part.type === 'text') {
      if (message === undefined) {
        message = messageItem(outputItemId('msg', responseIdentifier, items.length), '', 'completed');
        items.push(message);
      }
      const content = message.content[0];
      if (content === undefined) message.content.push(outputText(part.text));
      else content.text += part.text;
      continue;
    }
    message = undefined;
    if (part.type === 'reasoning') {
      if (part.text === '' && part.blob === undefined) continue;
      items.push(reasoningItem(outputItemId('rs', responseIdentifier, items.length, part.itemId), part.text, part.blob, part.redacted === true));
      continue;
    }
    if (carriesForeignCallBlob(part.blob)) items.push(reasoningItem(outputItemId('rs', responseIdentifier, items.length), '', part.blob, false));
    const custom = part.kind === 'custom';
    items.push(
      callItem(
        {
          id: outputItemId(custom ? 'ctc' : 'fc', responseIdentifier, items.length, part.itemId),
          callId: part.id,
          name: part.name,
          custom,
          // The IR treats "" as {}; clients JSON.parse function arguments.
          text: custom || part.arguments !== '' ? part.arguments : '{}',
          status: 'completed',
        },
        tools,
      ),
    );
  }
  return items;
}
