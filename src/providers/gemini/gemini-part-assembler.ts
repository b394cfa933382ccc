import type { BlockKind, IrStreamEvent, ProviderBlob } from '../../ir/index.js';
import type { GeminiFunctionCall, GeminiResponsePart } from './wire/generate-content-response.js';
import { customInputFromArgs } from './gemini-custom-tools.js';
import { createArgsAccumulator, type ArgsAccumulator } from './gemini-partial-args.js';

export interface PartAssemblerOptions {
  /** A call id for a function call that came without one (the Developer API never gives ids). */
  readonly mintCallId: () => string;
  /** Tools declared as custom: their calls carry raw text, not JSON. */
  readonly customTools: ReadonlySet<string>;
}

/** Turns Gemini response parts into canonical block events; holds the open-block state. */
export interface PartAssembler {
  accept(parts: readonly GeminiResponsePart[]): IrStreamEvent[];
  /** Closes every block still open, including a streamed call still awaiting its closing marker. */
  closeAll(): IrStreamEvent[];
  hasToolCalls(): boolean;
}

interface PendingCall {
  readonly index: number;
  readonly custom: boolean;
  readonly args: ArgsAccumulator;
  signature?: string;
}

/**
 * One state machine for both the whole answer and the stream, so both decode the same way:
 * - consecutive text parts extend one text block, consecutive `thought` parts one reasoning
 *   block; switching kind closes the open block;
 * - each function call is its own tool-call block (signature on its block-start), its arguments
 *   sent as one delta when the call is complete (at once, or at the closing marker of streamed args);
 * - a `thoughtSignature` on a text part belongs to that part: it closes the block the text went
 *   to, as that block's block-end blob. On an empty text part (how streams deliver it at the
 *   end) it closes the open text or reasoning block the same way; with no block open it becomes
 *   a zero-length reasoning block, which buildRequest sends back as the same empty text part.
 */
export function createPartAssembler(options: PartAssemblerOptions): PartAssembler {
  let nextIndex = 0;
  let open: { readonly index: number; readonly kind: 'text' | 'reasoning' } | undefined;
  let pending: PendingCall | undefined;
  let toolCalls = 0;

  function closeOpen(events: IrStreamEvent[], signature?: string): void {
    if (open === undefined) return;
    events.push(blockEnd(open.index, signature));
    open = undefined;
  }

  function finishPending(events: IrStreamEvent[]): void {
    if (pending === undefined) return;
    const args = pending.args.value();
    const text = pending.custom ? customInputFromArgs(args) : JSON.stringify(args);
    events.push({ type: 'block-delta', index: pending.index, delta: { kind: 'tool-arguments', text } });
    events.push(blockEnd(pending.index, pending.signature));
    pending = undefined;
  }

  function acceptFunctionCall(call: GeminiFunctionCall, signature: string | undefined, events: IrStreamEvent[]): void {
    if (!call.name) {
      // Continuation or closing marker (`functionCall:{}`) of a call whose arguments are streamed.
      if (pending === undefined) return;
      pending.args.apply(call.partialArgs ?? []);
      if (signature !== undefined) pending.signature = signature;
      if (call.willContinue !== true) finishPending(events);
      return;
    }
    finishPending(events);
    closeOpen(events);
    const index = nextIndex++;
    toolCalls += 1;
    const custom = options.customTools.has(call.name);
    const block: BlockKind = {
      kind: 'tool-call',
      id: call.id ?? options.mintCallId(),
      name: call.name,
      ...(custom ? { toolKind: 'custom' as const } : {}),
      ...(signature === undefined ? {} : { blob: geminiBlob(signature) }),
    };
    events.push({ type: 'block-start', index, block });
    const args = createArgsAccumulator(call.args);
    args.apply(call.partialArgs ?? []);
    pending = { index, custom, args };
    if (call.willContinue !== true) finishPending(events);
  }

  function acceptText(part: GeminiResponsePart, events: IrStreamEvent[]): void {
    const text = part.text ?? '';
    const signature = part.thoughtSignature ?? undefined;
    if (text === '' && signature === undefined) return;
    finishPending(events);
    if (text !== '') {
      const kind = part.thought === true ? 'reasoning' : 'text';
      if (open !== undefined && open.kind !== kind) closeOpen(events);
      if (open === undefined) {
        open = { index: nextIndex++, kind };
        events.push({ type: 'block-start', index: open.index, block: { kind } });
      }
      events.push({ type: 'block-delta', index: open.index, delta: { kind, text } });
    }
    if (signature === undefined) return;
    if (open === undefined) {
      const index = nextIndex++;
      events.push({ type: 'block-start', index, block: { kind: 'reasoning' } });
      events.push(blockEnd(index, signature));
    } else {
      closeOpen(events, signature);
    }
  }

  return {
    accept(parts) {
      const events: IrStreamEvent[] = [];
      for (const part of parts) {
        if (part.functionCall) acceptFunctionCall(part.functionCall, part.thoughtSignature ?? undefined, events);
        else if (part.text != null || part.thoughtSignature != null) acceptText(part, events);
        // inlineData / executableCode / codeExecutionResult only come back when image output or
        // code execution is enabled, which the gateway never requests.
      }
      return events;
    },
    closeAll() {
      const events: IrStreamEvent[] = [];
      finishPending(events);
      closeOpen(events);
      return events;
    },
    hasToolCalls: () => toolCalls > 0,
  };
}

function geminiBlob(value: string): ProviderBlob {
  return { provider: 'gemini', value };
}

function blockEnd(index: number, signature: string | undefined): IrStreamEvent {
  return signature === undefined
    ? { type: 'block-end', index }
    : { type: 'block-end', index, blob: geminiBlob(signature) };
}
