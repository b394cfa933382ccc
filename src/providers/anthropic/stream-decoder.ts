import { GatewayError } from '../../errors/gateway-error.js';
import type { BlockKind, IrRequest, IrStreamEvent, ProviderBlob } from '../../ir/index.js';
import type { JsonRecord } from '../../json/json-value.js';
import { isRecord, parseJson, readNumber, readRecord, readString } from '../../json/json-value.js';
import {
  finishFromStopReason,
  mergeMessagesUsage,
  readMessagesUsage,
  usageFromMessagesFigures,
} from '../../wire/messages/index.js';
import type { MessagesUsageFigures } from '../../wire/messages/index.js';
import type { StreamDecoder } from '../provider-adapter.js';
import { customToolNames, unwrapCustomInput } from '../custom-tool-wrapper.js';
import { streamErrorFromEvent } from './decode-error.js';

/** A block the decoder emits, keyed by the upstream's content index. */
interface EmittedBlock {
  readonly emitted: true;
  readonly index: number;
  readonly kind: BlockKind['kind'];
  /** Signature fragments (signature_delta) or the redacted payload, sent on block-end. */
  blob: string;
  /** Custom tools: JSON fragments held back and unwrapped to raw text at the end of the block. */
  readonly custom: boolean;
  argumentsText: string;
  /** The `input` given with content_block_start, used when no input_json_delta arrives. */
  readonly startInput: unknown;
}

/** Server-tool and unknown blocks: no neutral meaning, so their events are read past. */
interface SkippedBlock {
  readonly emitted: false;
}

type Phase = 'awaiting-start' | 'streaming' | 'finished';

function invalidStream(detail: string): GatewayError {
  return new GatewayError('upstream_invalid_response', `The upstream sent an unexpected stream: ${detail}.`);
}

/**
 * Messages SSE → IR events. States: awaiting-start (until message_start) → streaming → finished
 * (after message_stop, an error event or a protocol fault; later input is ignored). Upstream
 * content indexes are mapped to IR block indexes that count only the blocks emitted here.
 */
export function createAnthropicStreamDecoder(request: IrRequest): StreamDecoder {
  const customTools = customToolNames(request);
  const blocks = new Map<number, EmittedBlock | SkippedBlock>();
  let phase: Phase = 'awaiting-start';
  let nextIndex = 0;
  let figures: MessagesUsageFigures = {};
  let stopReason: string | undefined;
  let stopSequence: string | undefined;

  /** Argument text still owed at the end of a tool-call block (undefined when all of it was streamed). */
  function remainingArguments(block: EmittedBlock): string | undefined {
    if (block.custom) return unwrapCustomInput(parseJson(block.argumentsText === '' ? '{}' : block.argumentsText), block.argumentsText);
    if (block.argumentsText !== '') return undefined;
    // No input_json_delta (or only empty ones) means no arguments; "{}" keeps clients that parse them working.
    return JSON.stringify(isRecord(block.startInput) ? block.startInput : {});
  }

  function closeBlock(block: EmittedBlock): IrStreamEvent[] {
    const events: IrStreamEvent[] = [];
    const text = block.kind === 'tool-call' ? remainingArguments(block) : undefined;
    if (text !== undefined && text !== '') {
      events.push({ type: 'block-delta', index: block.index, delta: { kind: 'tool-arguments', text } });
    }
    const blob: ProviderBlob | undefined = block.blob === '' ? undefined : { provider: 'anthropic', value: block.blob };
    events.push({ type: 'block-end', index: block.index, ...(blob === undefined ? {} : { blob }) });
    return events;
  }

  function closeAll(): IrStreamEvent[] {
    const open = [...blocks.values()].filter((block): block is EmittedBlock => block.emitted);
    blocks.clear();
    return open.sort((left, right) => left.index - right.index).flatMap(closeBlock);
  }

  function fail(error: GatewayError): IrStreamEvent[] {
    phase = 'finished';
    return [...closeAll(), { type: 'error', error }];
  }

  function startBlock(upstreamIndex: number, contentBlock: JsonRecord): IrStreamEvent[] {
    const open = (kind: BlockKind['kind'], extra: Partial<EmittedBlock> = {}): EmittedBlock => {
      const block: EmittedBlock = {
        emitted: true, index: nextIndex, kind, blob: '', custom: false, argumentsText: '', startInput: undefined, ...extra,
      };
      nextIndex += 1;
      blocks.set(upstreamIndex, block);
      return block;
    };
    switch (contentBlock['type']) {
      case 'text': {
        const block = open('text');
        const text = readString(contentBlock, 'text') ?? '';
        return [
          { type: 'block-start', index: block.index, block: { kind: 'text' } },
          ...(text === '' ? [] : [{ type: 'block-delta', index: block.index, delta: { kind: 'text', text } } as const]),
        ];
      }
      case 'thinking': {
        const block = open('reasoning', { blob: readString(contentBlock, 'signature') ?? '' });
        const text = readString(contentBlock, 'thinking') ?? '';
        return [
          { type: 'block-start', index: block.index, block: { kind: 'reasoning' } },
          ...(text === '' ? [] : [{ type: 'block-delta', index: block.index, delta: { kind: 'reasoning', text } } as const]),
        ];
      }
      case 'redacted_thinking': {
        const data = readString(contentBlock, 'data') ?? '';
        const block = open('reasoning', { blob: data });
        const blob: ProviderBlob = { provider: 'anthropic', value: data };
        return [{ type: 'block-start', index: block.index, block: { kind: 'reasoning', redacted: true, blob } }];
      }
      case 'tool_use': {
        const id = readString(contentBlock, 'id');
        const name = readString(contentBlock, 'name');
        if (id === undefined || name === undefined) return fail(invalidStream('a tool_use block without id or name'));
        const custom = customTools.has(name);
        const block = open('tool-call', { custom, startInput: contentBlock['input'] });
        return [
          {
            type: 'block-start',
            index: block.index,
            block: { kind: 'tool-call', id, name, ...(custom ? { toolKind: 'custom' as const } : {}) },
          },
        ];
      }
      default:
        // server_tool_use, web_search_tool_result, …: the final message carries them; IR has no slot.
        blocks.set(upstreamIndex, { emitted: false });
        return [];
    }
  }

  function applyDelta(block: EmittedBlock, delta: JsonRecord): IrStreamEvent[] {
    switch (delta['type']) {
      case 'text_delta': {
        const text = readString(delta, 'text') ?? '';
        if (block.kind !== 'text' || text === '') return [];
        return [{ type: 'block-delta', index: block.index, delta: { kind: 'text', text } }];
      }
      case 'thinking_delta': {
        const text = readString(delta, 'thinking') ?? '';
        if (block.kind !== 'reasoning' || text === '') return [];
        return [{ type: 'block-delta', index: block.index, delta: { kind: 'reasoning', text } }];
      }
      case 'signature_delta':
        block.blob += readString(delta, 'signature') ?? '';
        return [];
      case 'input_json_delta': {
        const text = readString(delta, 'partial_json') ?? '';
        if (block.kind !== 'tool-call' || text === '') return [];
        block.argumentsText += text;
        if (block.custom) return [];
        return [{ type: 'block-delta', index: block.index, delta: { kind: 'tool-arguments', text } }];
      }
      default:
        // citations_delta and delta types added later have no IR counterpart.
        return [];
    }
  }

  function handle(type: string, event: JsonRecord): IrStreamEvent[] {
    if (type === 'ping') return [];
    if (type === 'error') return fail(streamErrorFromEvent(event));
    if (phase === 'awaiting-start') {
      if (type !== 'message_start') return fail(invalidStream(`${type} before message_start`));
      const message = readRecord(event, 'message');
      if (message === undefined) return fail(invalidStream('message_start without a message'));
      phase = 'streaming';
      figures = readMessagesUsage(message['usage']);
      return [
        {
          type: 'response-start',
          id: readString(message, 'id') ?? '',
          model: readString(message, 'model') ?? '',
          // Messages gives no timestamp; the arrival of message_start stands in for it.
          created: Math.floor(Date.now() / 1000),
          usage: usageFromMessagesFigures(figures),
        },
      ];
    }
    const upstreamIndex = readNumber(event, 'index');
    switch (type) {
      case 'content_block_start': {
        const contentBlock = readRecord(event, 'content_block');
        if (upstreamIndex === undefined || contentBlock === undefined) return fail(invalidStream('a malformed content_block_start'));
        if (blocks.has(upstreamIndex)) return fail(invalidStream(`block ${upstreamIndex} started twice`));
        return startBlock(upstreamIndex, contentBlock);
      }
      case 'content_block_delta': {
        const block = upstreamIndex === undefined ? undefined : blocks.get(upstreamIndex);
        const delta = readRecord(event, 'delta');
        if (block === undefined || !block.emitted || delta === undefined) return [];
        return applyDelta(block, delta);
      }
      case 'content_block_stop': {
        const block = upstreamIndex === undefined ? undefined : blocks.get(upstreamIndex);
        if (block === undefined || upstreamIndex === undefined) return [];
        blocks.delete(upstreamIndex);
        return block.emitted ? closeBlock(block) : [];
      }
      case 'message_delta': {
        const delta = readRecord(event, 'delta');
        if (delta !== undefined) {
          stopReason = readString(delta, 'stop_reason') ?? stopReason;
          stopSequence = readString(delta, 'stop_sequence') ?? stopSequence;
        }
        // message_delta usage is cumulative and may restate (and change) input figures.
        figures = mergeMessagesUsage(figures, readMessagesUsage(event['usage']));
        return [{ type: 'usage', usage: usageFromMessagesFigures(figures) }];
      }
      case 'message_stop':
        phase = 'finished';
        return [
          ...closeAll(),
          { type: 'response-end', finish: finishFromStopReason(stopReason, stopSequence), usage: usageFromMessagesFigures(figures) },
        ];
      default:
        // Event types added to the protocol later are read past.
        return [];
    }
  }

  return {
    push(eventName, data) {
      if (phase === 'finished' || data.trim() === '') return [];
      const event = parseJson(data);
      if (!isRecord(event)) return fail(invalidStream('an event that is not a JSON object'));
      const type = readString(event, 'type') ?? eventName;
      if (type === undefined) return fail(invalidStream('an event without a type'));
      return handle(type, event);
    },
    end() {
      if (phase === 'finished') return [];
      return fail(new GatewayError('upstream_error', 'The upstream stream ended before the response was complete.'));
    },
  };
}
