import type { IrMessage } from './message.js';
import type { IrTool, JsonSchema, ToolChoice } from './tool.js';

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/**
 * Reasoning controls. Formats express them differently (chat `reasoning_effort`, Responses
 * `reasoning`, Anthropic `thinking` budget or adaptive, Gemini `thinkingConfig`); each field is
 * set only when the client said it, and providers derive what they need from what is present.
 */
export interface ReasoningConfig {
  readonly effort?: ReasoningEffort;
  /** Explicit thinking budget in tokens (Anthropic `budget_tokens`, Gemini `thinkingBudget`). */
  readonly budgetTokens?: number;
  /** `false` when the client turned reasoning off explicitly. */
  readonly enabled?: boolean;
  /** Anthropic `thinking.type: "adaptive"`: the model decides how much to think. */
  readonly adaptive?: boolean;
  readonly summary?: 'auto' | 'concise' | 'detailed';
}

export type ResponseFormat =
  | { readonly type: 'text' }
  | { readonly type: 'json_object' }
  | {
      readonly type: 'json_schema';
      readonly name: string;
      readonly schema: JsonSchema;
      readonly strict?: boolean;
      readonly description?: string;
    };

export interface GenerationParams {
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly topP?: number;
  readonly topK?: number;
  readonly stop?: readonly string[];
  readonly seed?: number;
  readonly frequencyPenalty?: number;
  readonly presencePenalty?: number;
  /** Number of choices (chat `n`). Translated upstreams support only 1. */
  readonly choiceCount?: number;
}

/**
 * The canonical request: what a client asked for, independent of wire format.
 *
 * `extensions` holds what has no neutral meaning, keyed by the format or provider it belongs to
 * (e.g. `extensions.chat` = unknown chat fields, `extensions.anthropic` = `context_management`);
 * a provider of the same family forwards its own key and ignores the others.
 */
export interface IrRequest {
  /** The model id the client sent (public id or alias), before routing. */
  readonly model: string;
  readonly messages: readonly IrMessage[];
  readonly tools?: readonly IrTool[];
  readonly toolChoice?: ToolChoice;
  readonly parallelToolCalls?: boolean;
  readonly params: GenerationParams;
  readonly reasoning?: ReasoningConfig;
  readonly responseFormat?: ResponseFormat;
  readonly stream: boolean;
  /** End-user identifier (chat/responses `user`, Anthropic `metadata.user_id`). */
  readonly user?: string;
  readonly metadata?: Readonly<Record<string, string>>;
  readonly extensions: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}
