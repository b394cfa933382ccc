import type { GatewayError } from '../../../errors/gateway-error.js';
import type { IrRequest, IrStreamEvent, ProviderBlob, Usage } from '../../../ir/index.js';
import type { JsonRecord } from '../../../json/json-value.js';
import { isRecord, parseJson, readNumber, readRecord, readString } from '../../../json/json-value.js';
import type { StreamDecoder } from '../../provider-adapter.js';
import { converseToolUseId } from './converse-tool-ids.js';
import { customToolNames, unwrapCustomInput } from '../../custom-tool-wrapper.js';
import { converseStreamError, isConverseStreamException, truncatedStreamError } from './decode-error.js';
import { matchedStopSequence } from './decode-response.js';
import { invalidStream, streamEventTypes } from './stream-event-types.js';
import { finishFromConverseStopReason } from './wire/converse-stop-reason.js';
import { usageFromConverseUsage } from './wire/converse-usage.js';

/** One upstream content block, by its `contentBlockIndex`. */
interface BlockState {
  /** The IR index, once the block has been emitted (blank blocks never are). */
  index: number | undefined;
  kind: 'text' | 'reasoning' | 'tool-call' | undefined;
  redacted: boolean;
  /** Signature fragments, or the redacted payload, sent with block-end. */
  blob: string;
  toolId: string;
  toolName: string;
  custom: boolean;
  argumentsText: string;
}

function newBlock(): BlockState {
  return { index: undefined, kind: undefined, redacted: false, blob: '', toolId: '', toolName: '', custom: false, argumentsText: '' };
}

type Phase = 'awaiting-start' | 'streaming' | 'finished';

/**
 * ConverseStream events → IR events, fed `(eventName, data)`: the event stream's `:event-type`
 * (or, for an exception, its name) and the JSON payload.
 *
 * What the recorded streams show, and this follows: only a tool call opens with
 * `contentBlockStart`; text and reasoning blocks begin with their first `contentBlockDelta`, and
 * some models send blank blocks (`{"text": ""}` only), which are never emitted. `messageStop`
 * (the stop reason) and `metadata` (the usage) come in either order, so the response ends once
 * both have arrived — or when the stream closes after `messageStop`.
 */
export function createConverseStreamDecoder(request: IrRequest): StreamDecoder {
  const customTools = customToolNames(request);
  const blocks = new Map<number, BlockState>();
  let phase: Phase = 'awaiting-start';
  let nextIndex = 0;
  let usage: Usage | undefined;
  let stop: { reason: string | undefined; sequence: string | undefined } | undefined;

  function start(): IrStreamEvent[] {
    phase = 'streaming';
    // Converse names no response id and no model, and gives no time: the request's model and the
    // arrival of the first event stand in.
    return [{ type: 'response-start', id: '', model: request.model, created: Math.floor(Date.now() / 1000) }];
  }

  function emit(block: BlockState, kind: 'text' | 'reasoning'): IrStreamEvent[] {
    if (block.index !== undefined) return [];
    block.kind = kind;
    block.index = nextIndex;
    nextIndex += 1;
    return [{ type: 'block-start', index: block.index, block: kind === 'text' ? { kind: 'text' } : { kind: 'reasoning', ...(block.redacted ? { redacted: true } : {}) } }];
  }

  function closeBlock(block: BlockState): IrStreamEvent[] {
    const index = block.index;
    if (index === undefined) return [];
    const events: IrStreamEvent[] = [];
    if (block.kind === 'tool-call') {
      const owed = block.custom
        ? unwrapCustomInput(parseJson(block.argumentsText === '' ? '{}' : block.argumentsText), block.argumentsText)
        : block.argumentsText === '' ? '{}' : '';
      if (owed !== '') events.push({ type: 'block-delta', index, delta: { kind: 'tool-arguments', text: owed } });
    }
    const blob: ProviderBlob | undefined = block.blob === '' ? undefined : { provider: 'bedrock', value: block.blob };
    events.push({ type: 'block-end', index, ...(blob === undefined ? {} : { blob }) });
    return events;
  }

  function closeAll(): IrStreamEvent[] {
    const open = [...blocks.values()];
    blocks.clear();
    return open.sort((left, right) => (left.index ?? 0) - (right.index ?? 0)).flatMap(closeBlock);
  }

  function fail(error: GatewayError): IrStreamEvent[] {
    phase = 'finished';
    return [...closeAll(), { type: 'error', error }];
  }

  function finish(): IrStreamEvent[] {
    phase = 'finished';
    return [
      ...closeAll(),
      {
        type: 'response-end',
        finish: finishFromConverseStopReason(stop?.reason, stop?.sequence),
        usage: usage ?? { inputUncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 },
      },
    ];
  }

  function blockAt(event: JsonRecord): BlockState | undefined {
    const upstreamIndex = readNumber(event, 'contentBlockIndex');
    if (upstreamIndex === undefined) return undefined;
    let block = blocks.get(upstreamIndex);
    if (block === undefined) {
      block = newBlock();
      blocks.set(upstreamIndex, block);
    }
    return block;
  }

  function startBlock(event: JsonRecord): IrStreamEvent[] {
    const block = blockAt(event);
    const toolUse = readRecord(readRecord(event, 'start'), 'toolUse');
    if (block === undefined) return fail(invalidStream('a contentBlockStart without contentBlockIndex'));
    // Other starts (images, …) have no neutral meaning; their deltas are read past.
    if (toolUse === undefined || block.index !== undefined) return [];
    const id = readString(toolUse, 'toolUseId');
    const name = readString(toolUse, 'name');
    if (id === undefined || name === undefined) return fail(invalidStream('a toolUse start without toolUseId or name'));
    block.kind = 'tool-call';
    block.toolId = converseToolUseId(id);
    block.toolName = name;
    block.custom = customTools.has(name);
    block.index = nextIndex;
    nextIndex += 1;
    return [{
      type: 'block-start',
      index: block.index,
      block: { kind: 'tool-call', id: block.toolId, name, ...(block.custom ? { toolKind: 'custom' as const } : {}) },
    }];
  }

  function applyDelta(block: BlockState, delta: JsonRecord): IrStreamEvent[] {
    const text = readString(delta, 'text');
    if (text !== undefined) {
      if (block.kind !== undefined && block.kind !== 'text') return [];
      if (text === '') return [];
      const started = emit(block, 'text');
      return [...started, { type: 'block-delta', index: block.index ?? 0, delta: { kind: 'text', text } }];
    }
    const toolUse = readRecord(delta, 'toolUse');
    if (toolUse !== undefined) {
      const input = readString(toolUse, 'input') ?? '';
      if (block.kind !== 'tool-call' || block.index === undefined || input === '') return [];
      block.argumentsText += input;
      return block.custom ? [] : [{ type: 'block-delta', index: block.index, delta: { kind: 'tool-arguments', text: input } }];
    }
    const reasoning = readRecord(delta, 'reasoningContent');
    if (reasoning === undefined || (block.kind !== undefined && block.kind !== 'reasoning')) return [];
    const redacted = readString(reasoning, 'redactedContent');
    if (redacted !== undefined) {
      if (block.index === undefined) block.redacted = true;
      block.blob += redacted;
      return emit(block, 'reasoning');
    }
    const signature = readString(reasoning, 'signature');
    if (signature !== undefined) {
      block.blob += signature;
      return emit(block, 'reasoning');
    }
    const thought = readString(reasoning, 'text') ?? '';
    if (thought === '') return [];
    const started = emit(block, 'reasoning');
    return [...started, { type: 'block-delta', index: block.index ?? 0, delta: { kind: 'reasoning', text: thought } }];
  }

  function handle(type: string, event: JsonRecord): IrStreamEvent[] {
    if (isConverseStreamException(type)) return fail(converseStreamError(type, event));
    const started = phase === 'awaiting-start' ? start() : [];
    switch (type) {
      case 'messageStart':
        return started;
      case 'contentBlockStart':
        return [...started, ...startBlock(event)];
      case 'contentBlockDelta': {
        const block = blockAt(event);
        const delta = readRecord(event, 'delta');
        return block === undefined || delta === undefined ? started : [...started, ...applyDelta(block, delta)];
      }
      case 'contentBlockStop': {
        const upstreamIndex = readNumber(event, 'contentBlockIndex');
        const block = upstreamIndex === undefined ? undefined : blocks.get(upstreamIndex);
        if (block === undefined || upstreamIndex === undefined) return started;
        blocks.delete(upstreamIndex);
        return [...started, ...closeBlock(block)];
      }
      case 'messageStop':
        stop = { reason: readString(event, 'stopReason'), sequence: matchedStopSequence(event['additionalModelResponseFields']) };
        return usage === undefined ? [...started, ...closeAll()] : [...started, ...finish()];
      case 'metadata':
        usage = usageFromConverseUsage(event['usage']);
        return stop === undefined ? [...started, { type: 'usage', usage }] : [...started, ...finish()];
      default:
        // Event types added to the API later are read past.
        return started;
    }
  }

  return {
    push(eventName, data) {
      if (phase === 'finished' || data.trim() === '') return [];
      const parsed = parseJson(data);
      if (!isRecord(parsed)) return fail(invalidStream('an event that is not a JSON object'));
      const event = eventName === undefined ? streamEventTypes.unwrap(parsed) : { type: eventName, payload: parsed };
      if (event === undefined) return fail(invalidStream('an event without a type'));
      return handle(event.type, event.payload);
    },
    end() {
      if (phase === 'finished') return [];
      if (stop !== undefined) return finish();
      return fail(truncatedStreamError());
    },
  };
}
