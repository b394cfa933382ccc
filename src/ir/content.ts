/**
 * Content parts of the canonical request and response. Every client format decodes into these and
 * every provider encodes from them, so a part type exists here only when it has a neutral meaning
 * shared by at least two wire formats; the rest rides in `extensions`.
 */

/** An opaque value that only the provider which produced it can interpret (signatures, encrypted reasoning). */
export interface ProviderBlob {
  /** Provider kind that minted the value: it is sent back only to the same kind. */
  readonly provider: BlobProvider;
  readonly value: string;
}

export type BlobProvider = 'openai' | 'anthropic' | 'gemini' | 'bedrock' | 'sim';

/** Prompt-cache hint as Anthropic defines it; other providers ignore it. */
export interface CacheControl {
  readonly type: 'ephemeral';
  readonly ttl?: string;
}

export interface TextPart {
  readonly type: 'text';
  readonly text: string;
  readonly cacheControl?: CacheControl;
  /** Gemini attaches thought signatures to ordinary parts; they must be echoed on the same part. */
  readonly blob?: ProviderBlob;
}

export type ImageSource =
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'base64'; readonly mediaType: string; readonly data: string }
  | { readonly kind: 'file'; readonly fileId: string };

export interface ImagePart {
  readonly type: 'image';
  readonly source: ImageSource;
  readonly detail?: 'auto' | 'low' | 'high';
  readonly cacheControl?: CacheControl;
}

export type FileSource =
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'base64'; readonly mediaType: string; readonly data: string }
  | { readonly kind: 'file'; readonly fileId: string }
  | { readonly kind: 'text'; readonly mediaType: string; readonly text: string };

export interface FilePart {
  readonly type: 'file';
  readonly source: FileSource;
  readonly filename?: string;
  readonly cacheControl?: CacheControl;
}

/**
 * Model reasoning. `text` is the visible thinking or summary (may be empty); `blob` carries the
 * signature / encrypted content that must round-trip unchanged; `redacted` marks content the
 * provider hid entirely (Anthropic redacted_thinking: the whole payload is in `blob`).
 */
export interface ReasoningPart {
  readonly type: 'reasoning';
  readonly text: string;
  readonly blob?: ProviderBlob;
  readonly redacted?: boolean;
  /** Provider item id when the provider names reasoning items (OpenAI Responses `rs_…`). */
  readonly itemId?: string;
}

export interface ToolCallPart {
  readonly type: 'tool-call';
  /** Call id that the matching tool result references. */
  readonly id: string;
  readonly name: string;
  /** Arguments as JSON text, exactly as the model produced them ("" is treated as {}). */
  readonly arguments: string;
  /** `custom` tools (free-form input, e.g. a patch) carry raw text instead of JSON arguments. */
  readonly kind?: 'function' | 'custom';
  readonly blob?: ProviderBlob;
  /** Provider item id when distinct from the call id (OpenAI Responses `fc_…`). */
  readonly itemId?: string;
}

export interface ToolResultPart {
  readonly type: 'tool-result';
  readonly callId: string;
  /** Name of the called tool when the client gave it or it could be recovered (Gemini needs it). */
  readonly name?: string;
  readonly content: string | readonly (TextPart | ImagePart | FilePart)[];
  readonly isError?: boolean;
  readonly kind?: 'function' | 'custom';
  readonly cacheControl?: CacheControl;
}

export type ContentPart = TextPart | ImagePart | FilePart | ReasoningPart | ToolCallPart | ToolResultPart;

/** Parts a model can produce in a response. */
export type OutputPart = TextPart | ReasoningPart | ToolCallPart;
