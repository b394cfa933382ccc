import type { OutputPart } from './content.js';
import type { FinishInfo } from './finish-reason.js';
import type { Usage } from './usage.js';

/** A complete (non-streamed) model answer. */
export interface IrResponse {
  /** Upstream response id when it gave one; formats mint their own id shape from it. */
  readonly id: string;
  /** The model that answered, as the upstream named it. */
  readonly model: string;
  /** Unix seconds. */
  readonly created: number;
  readonly content: readonly OutputPart[];
  readonly finish: FinishInfo;
  readonly usage: Usage;
  /** Provider-specific response data with no neutral meaning, keyed by provider kind. */
  readonly extensions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}
