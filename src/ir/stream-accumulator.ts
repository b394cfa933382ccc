import type { OutputPart, ProviderBlob } from './content.js';
import type { FinishInfo } from './finish-reason.js';
import type { IrResponse } from './response.js';
import type { BlockKind, IrStreamEvent } from './stream-event.js';
import { zeroUsage, type Usage } from './usage.js';

interface OpenBlock {
  readonly kind: BlockKind;
  text: string;
  blob: ProviderBlob | undefined;
}

/**
 * Folds a canonical event stream into the response it describes, so a streamed answer can be
 * stored, compared with its non-streamed twin, or metered like one.
 */
export class StreamAccumulator {
  private id = '';
  private model = '';
  private created = 0;
  private usage: Usage = zeroUsage;
  private finish: FinishInfo | undefined;
  private readonly blocks = new Map<number, OpenBlock>();

  push(event: IrStreamEvent): void {
    switch (event.type) {
      case 'response-start':
        this.id = event.id;
        this.model = event.model;
        this.created = event.created;
        if (event.usage !== undefined) this.usage = event.usage;
        return;
      case 'block-start':
        this.blocks.set(event.index, { kind: event.block, text: '', blob: event.block.blob });
        return;
      case 'block-delta': {
        const block = this.blocks.get(event.index);
        if (block !== undefined) block.text += event.delta.text;
        return;
      }
      case 'block-end': {
        const block = this.blocks.get(event.index);
        if (block !== undefined && event.blob !== undefined) block.blob = event.blob;
        return;
      }
      case 'usage':
        this.usage = event.usage;
        return;
      case 'response-end':
        this.usage = event.usage;
        this.finish = event.finish;
        return;
      case 'error':
        return;
    }
  }

  /** The response so far; `finish` is `error` when the stream never ended properly. */
  result(): IrResponse {
    const content = [...this.blocks.entries()].sort(([left], [right]) => left - right).map(([, block]) => toPart(block));
    return {
      id: this.id,
      model: this.model,
      created: this.created,
      content,
      finish: this.finish ?? { reason: 'error' },
      usage: this.usage,
    };
  }
}

function toPart(block: OpenBlock): OutputPart {
  const blob = block.blob === undefined ? {} : { blob: block.blob };
  switch (block.kind.kind) {
    case 'text':
      return { type: 'text', text: block.text, ...blob };
    case 'reasoning':
      return {
        type: 'reasoning',
        text: block.text,
        ...blob,
        ...(block.kind.redacted ? { redacted: true } : {}),
        ...(block.kind.itemId ? { itemId: block.kind.itemId } : {}),
      };
    case 'tool-call':
      return {
        type: 'tool-call',
        id: block.kind.id,
        name: block.kind.name,
        arguments: block.text,
        ...blob,
        ...(block.kind.toolKind ? { kind: block.kind.toolKind } : {}),
        ...(block.kind.itemId ? { itemId: block.kind.itemId } : {}),
      };
  }
}
