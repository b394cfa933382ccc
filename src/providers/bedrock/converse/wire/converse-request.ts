/**
 * The body of Bedrock's Converse and ConverseStream calls (`POST /model/{modelId}/converse` and
 * `/converse-stream`), as the Bedrock Runtime API reference defines it. Only the members the
 * gateway writes are declared; a union member is an object with exactly one key.
 */

export interface ConverseCachePoint {
  readonly cachePoint: { readonly type: 'default' };
}

/** Image formats Converse takes (`ImageBlock.format`). */
export type ConverseImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

/** Document formats Converse takes (`DocumentBlock.format`). */
export type ConverseDocumentFormat = 'pdf' | 'csv' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'html' | 'txt' | 'md';

/** Converse carries bytes in JSON as base64; an S3 object is named by its `s3://` URI. */
export type ConverseSource = { readonly bytes: string } | { readonly s3Location: { readonly uri: string } };

export interface ConverseImageBlock {
  readonly image: { readonly format: ConverseImageFormat; readonly source: ConverseSource };
}

export interface ConverseDocumentBlock {
  readonly document: { readonly format: ConverseDocumentFormat; readonly name: string; readonly source: ConverseSource };
}

export interface ConverseTextBlock {
  readonly text: string;
}

export interface ConverseToolUseBlock {
  readonly toolUse: { readonly toolUseId: string; readonly name: string; readonly input: unknown };
}

export type ConverseToolResultContent =
  | ConverseTextBlock
  | { readonly json: unknown }
  | ConverseImageBlock
  | ConverseDocumentBlock;

export interface ConverseToolResultBlock {
  readonly toolResult: {
    readonly toolUseId: string;
    readonly content: readonly ConverseToolResultContent[];
    readonly status?: 'success' | 'error';
  };
}

export type ConverseReasoningBlock =
  | { readonly reasoningContent: { readonly reasoningText: { readonly text: string; readonly signature?: string } } }
  | { readonly reasoningContent: { readonly redactedContent: string } };

export type ConverseContentBlock =
  | ConverseTextBlock
  | ConverseImageBlock
  | ConverseDocumentBlock
  | ConverseToolUseBlock
  | ConverseToolResultBlock
  | ConverseReasoningBlock
  | ConverseCachePoint;

export interface ConverseMessage {
  readonly role: 'user' | 'assistant';
  readonly content: readonly ConverseContentBlock[];
}

export type ConverseSystemBlock = ConverseTextBlock | ConverseCachePoint;

export interface ConverseToolSpec {
  readonly toolSpec: {
    readonly name: string;
    readonly description?: string;
    readonly inputSchema: { readonly json: Readonly<Record<string, unknown>> };
    /** Bedrock holds the call's input to the schema (structured outputs' strict tool use). */
    readonly strict?: boolean;
  };
}

export type ConverseTool = ConverseToolSpec | ConverseCachePoint;

export type ConverseToolChoice =
  | { readonly auto: Readonly<Record<string, never>> }
  | { readonly any: Readonly<Record<string, never>> }
  | { readonly tool: { readonly name: string } };

export interface ConverseToolConfig {
  readonly tools: readonly ConverseTool[];
  readonly toolChoice?: ConverseToolChoice;
}

export interface ConverseInferenceConfig {
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly topP?: number;
  readonly stopSequences?: readonly string[];
}

/**
 * Structured output (`OutputConfig.textFormat`): the answer's text follows a JSON schema, which
 * Converse takes as JSON text, not as an object.
 */
export interface ConverseOutputConfig {
  readonly textFormat: {
    readonly type: 'json_schema';
    readonly structure: { readonly jsonSchema: { readonly schema: string; readonly name?: string; readonly description?: string } };
  };
}

export interface ConverseRequestBody {
  readonly messages: readonly ConverseMessage[];
  readonly system?: readonly ConverseSystemBlock[];
  readonly inferenceConfig?: ConverseInferenceConfig;
  readonly toolConfig?: ConverseToolConfig;
  readonly outputConfig?: ConverseOutputConfig;
  /** Model-specific fields passed to the model as they are (Claude's `thinking`, gpt-oss's `reasoning_effort`). */
  readonly additionalModelRequestFields?: Readonly<Record<string, unknown>>;
  readonly [extra: string]: unknown;
}
