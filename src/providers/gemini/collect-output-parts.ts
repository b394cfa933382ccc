import type { IrStreamEvent, OutputPart, ProviderBlob } from '../../ir/index.js';

interface Draft {
  part: OutputPart;
}

/** Folds block events (as the part assembler emits them) into the output parts of a whole answer. */
export function collectOutputParts(events: readonly IrStreamEvent[]): OutputPart[] {
  const drafts = new Map<number, Draft>();
  for (const event of events) {
    if (event.type === 'block-start') {
      drafts.set(event.index, { part: partFor(event.block) });
    } else if (event.type === 'block-delta') {
      const draft = drafts.get(event.index);
      if (draft !== undefined) draft.part = appendDelta(draft.part, event.delta.text);
    } else if (event.type === 'block-end' && event.blob !== undefined) {
      const draft = drafts.get(event.index);
      if (draft !== undefined) draft.part = withBlob(draft.part, event.blob);
    }
  }
  return [...drafts.entries()].sort(([left], [right]) => left - right).map(([, draft]) => draft.part);
}

function partFor(block: Extract<IrStreamEvent, { type: 'block-start' }>['block']): OutputPart {
  if (block.kind === 'text') return { type: 'text', text: '', ...(block.blob ? { blob: block.blob } : {}) };
  if (block.kind === 'reasoning') return { type: 'reasoning', text: '', ...(block.blob ? { blob: block.blob } : {}) };
  return {
    type: 'tool-call',
    id: block.id,
    name: block.name,
    arguments: '',
    ...(block.toolKind ? { kind: block.toolKind } : {}),
    ...(block.blob ? { blob: block.blob } : {}),
  };
}

function appendDelta(part: OutputPart, text: string): OutputPart {
  if (part.type === 'tool-call') return { ...part, arguments: part.arguments + text };
  return { ...part, text: part.text + text };
}

function withBlob(part: OutputPart, blob: ProviderBlob): OutputPart {
  return { ...part, blob };
}
