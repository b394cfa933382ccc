/**
 * The Gemini `generateContent` request body as the gateway writes it (only the fields it sets).
 * Field names follow the REST (camelCase) spelling of the v1beta API.
 */

export interface GeminiFunctionCallOut {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly id?: string;
}

export interface GeminiFunctionResponseOut {
  readonly name: string;
  readonly response: Readonly<Record<string, unknown>>;
  readonly id?: string;
}

/** One request part: exactly one of the data fields, plus an optional thought signature. */
export interface GeminiRequestPart {
  readonly text?: string;
  readonly thought?: boolean;
  readonly thoughtSignature?: string;
  readonly inlineData?: { readonly mimeType: string; readonly data: string };
  readonly fileData?: { readonly mimeType: string; readonly fileUri: string };
  readonly functionCall?: GeminiFunctionCallOut;
  readonly functionResponse?: GeminiFunctionResponseOut;
}

export interface GeminiContent {
  readonly role: 'user' | 'model';
  readonly parts: readonly GeminiRequestPart[];
}

export interface GeminiFunctionDeclaration {
  readonly name: string;
  readonly description?: string;
  readonly parametersJsonSchema?: Readonly<Record<string, unknown>>;
}

export type GeminiFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED';

export interface GeminiToolConfig {
  readonly functionCallingConfig: {
    readonly mode: GeminiFunctionCallingMode;
    readonly allowedFunctionNames?: readonly string[];
  };
}

export interface GeminiThinkingConfig {
  /** Tokens; 0 turns thinking off, -1 lets the model decide. */
  readonly thinkingBudget?: number;
  readonly includeThoughts?: boolean;
}

export interface GeminiGenerationConfig {
  readonly temperature?: number;
  readonly topP?: number;
  readonly topK?: number;
  readonly maxOutputTokens?: number;
  readonly stopSequences?: readonly string[];
  readonly candidateCount?: number;
  readonly seed?: number;
  readonly presencePenalty?: number;
  readonly frequencyPenalty?: number;
  readonly responseMimeType?: string;
  readonly responseJsonSchema?: Readonly<Record<string, unknown>>;
  readonly thinkingConfig?: GeminiThinkingConfig;
}

export interface GenerateContentRequest {
  readonly contents: readonly GeminiContent[];
  readonly systemInstruction?: { readonly parts: readonly GeminiRequestPart[] };
  readonly tools?: readonly Readonly<Record<string, unknown>>[];
  readonly toolConfig?: GeminiToolConfig;
  readonly generationConfig?: GeminiGenerationConfig;
}
