/**
 * The Chat Completions shapes Switchyard writes (responses, chunks, upstream requests, errors).
 * Shapes it only reads are validated where they are read instead of being typed here.
 */

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

export interface ChatFunctionToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatCustomToolCall {
  id: string;
  type: 'custom';
  custom: { name: string; input: string };
}

export type ChatToolCall = ChatFunctionToolCall | ChatCustomToolCall;

export interface ChatResponseMessage {
  role: 'assistant';
  content: string | null;
  refusal: string | null;
  /** Compat convention (DeepSeek, xAI, vLLM) for visible reasoning; OpenAI itself never sends it. */
  reasoning_content?: string;
  tool_calls?: ChatToolCall[];
  annotations: unknown[];
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: ChatResponseMessage;
    logprobs: null;
    finish_reason: string;
  }>;
  usage: ChatUsage;
}

export interface ChatChunkToolCall {
  index: number;
  id?: string;
  type?: 'function' | 'custom';
  function?: { name?: string; arguments: string };
  custom?: { name?: string; input: string };
}

export interface ChatChunkDelta {
  role?: 'assistant';
  content?: string | null;
  reasoning_content?: string;
  refusal?: string | null;
  tool_calls?: ChatChunkToolCall[];
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    delta: ChatChunkDelta;
    logprobs: null;
    finish_reason: string | null;
  }>;
  usage?: ChatUsage | null;
}

export type ChatRequestContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } }
  | { type: 'input_audio'; input_audio: { data: string; format: string } }
  | { type: 'file'; file: { file_id?: string; file_data?: string; filename?: string } };

export type ChatTextContentPart = { type: 'text'; text: string };

export type ChatRequestMessage =
  | { role: 'system' | 'developer'; content: string | ChatTextContentPart[]; name?: string }
  | { role: 'user'; content: string | ChatRequestContentPart[]; name?: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[]; name?: string }
  | { role: 'tool'; tool_call_id: string; content: string | ChatTextContentPart[] };

export interface ChatErrorBody {
  error: {
    message: string;
    type: string;
    param: string | null;
    code: string | null;
    /** Not part of OpenAI's shape; SDKs ignore unknown fields and operators can quote it. */
    request_id?: string;
  };
}
