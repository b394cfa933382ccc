/**
 * The little the simulator needs to know about a request, whatever its wire format. Each
 * endpoint's extractor builds one of these; the reply planner reads only this.
 */

export interface SimTool {
  readonly name: string;
  /** The tool's JSON schema for its arguments (may be empty). */
  readonly schema: unknown;
}

export type SimForcedTool = { readonly kind: 'any' } | { readonly kind: 'named'; readonly name: string };

export interface SimConversation {
  readonly model: string;
  /** Text of the last user-authored message; directives are read from it. */
  readonly userText: string;
  /** Text of the trailing tool result(s) when the last turn is a tool result, else null. */
  readonly toolResult: string | null;
  readonly tools: readonly SimTool[];
  /** Set when the request's tool choice obliges the model to call a tool. */
  readonly forcedTool: SimForcedTool | null;
  /** The request asked for reasoning / thinking / thoughts. */
  readonly reasoningRequested: boolean;
  readonly maxOutputTokens: number | null;
  /** Characters of all text in the request (messages, system, tool results, tool definitions). */
  readonly inputCharacters: number;
}

/** Accumulates the character count while an extractor walks a request. */
export class CharacterCounter {
  private total = 0;

  add(text: string | undefined): void {
    if (text !== undefined) this.total += text.length;
  }

  addJson(value: unknown): void {
    if (value !== undefined) this.total += JSON.stringify(value).length;
  }

  get characters(): number {
    return this.total;
  }
}
