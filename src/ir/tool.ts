/** A JSON Schema document, kept as the client sent it. */
export type JsonSchema = Readonly<Record<string, unknown>>;

export interface FunctionTool {
  readonly type: 'function';
  readonly name: string;
  readonly description?: string;
  readonly parameters: JsonSchema;
  readonly strict?: boolean;
  readonly cacheControl?: { readonly type: 'ephemeral'; readonly ttl?: string };
  /** Format-specific extras (Anthropic `defer_loading`, …) keyed by format name. */
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/** A free-form tool whose input is raw text, optionally constrained by a grammar (Responses `custom`). */
export interface CustomTool {
  readonly type: 'custom';
  readonly name: string;
  readonly description?: string;
  readonly format?: Readonly<Record<string, unknown>>;
}

/** A tool the provider runs itself (web search, code execution, …), kept as the client sent it. */
export interface HostedTool {
  readonly type: 'hosted';
  /** The client's own type name, e.g. `web_search` or `web_search_20250305`. */
  readonly name: string;
  /** Format the definition came from; only a provider speaking that format can serve it. */
  readonly format: string;
  readonly definition: Readonly<Record<string, unknown>>;
}

export type IrTool = FunctionTool | CustomTool | HostedTool;

export type ToolChoice =
  | { readonly type: 'auto' }
  | { readonly type: 'none' }
  | { readonly type: 'required' }
  | { readonly type: 'tool'; readonly name: string };
