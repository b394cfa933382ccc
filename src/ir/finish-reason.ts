/**
 * Why generation stopped, in neutral terms. The provider's own value is kept beside it
 * (`FinishInfo.raw`) so a client of the same family can be given the exact original.
 */
export type FinishReason =
  | 'stop'
  | 'stop-sequence'
  | 'length'
  | 'context-window'
  | 'tool-calls'
  | 'content-filter'
  | 'refusal'
  | 'pause'
  | 'error'
  | 'other';

export interface FinishInfo {
  readonly reason: FinishReason;
  /** The upstream's own value (`end_turn`, `STOP`, `tool_calls`, …) when there was one. */
  readonly raw?: string;
  /** The stop sequence that matched, when the upstream reports it. */
  readonly stopSequence?: string;
}
