/**
 * The OpenAI Responses shapes Switchyard writes (Response objects, output items, stream events).
 * Shapes it only reads are validated where they are read instead of being typed here.
 */

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs: unknown[];
}

export interface ResponsesSummaryText {
  type: 'summary_text';
  text: string;
}

export type ResponsesItemStatus = 'in_progress' | 'completed' | 'incomplete';

export interface ResponsesMessageItem {
  type: 'message';
  id: string;
  role: 'assistant';
  status: ResponsesItemStatus;
  content: ResponsesOutputText[];
}

export interface ResponsesReasoningItem {
  type: 'reasoning';
  id: string;
  summary: ResponsesSummaryText[];
  encrypted_content?: string;
}

export interface ResponsesFunctionCallItem {
  type: 'function_call';
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: ResponsesItemStatus;
  /** Set when the function belongs to a `namespace` tool: Codex routes the call by name and namespace. */
  namespace?: string;
}

export interface ResponsesCustomToolCallItem {
  type: 'custom_tool_call';
  id: string;
  call_id: string;
  name: string;
  input: string;
  status: ResponsesItemStatus;
  namespace?: string;
}

export type ResponsesOutputItem = ResponsesMessageItem | ResponsesReasoningItem | ResponsesFunctionCallItem | ResponsesCustomToolCallItem;

export type ResponsesStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

export interface ResponsesIncompleteDetails {
  reason: 'max_output_tokens' | 'content_filter';
}

/** `response.error`: only a code and a message (unlike the HTTP error body). */
export interface ResponsesErrorObject {
  code: string;
  message: string;
}

export interface ResponsesObject {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponsesStatus;
  background: boolean;
  completed_at: number | null;
  error: ResponsesErrorObject | null;
  incomplete_details: ResponsesIncompleteDetails | null;
  instructions: string | null;
  max_output_tokens: number | null;
  max_tool_calls: number | null;
  model: string;
  output: ResponsesOutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  prompt_cache_key: string | null;
  reasoning: { effort: string | null; summary: string | null };
  safety_identifier: string | null;
  service_tier: string;
  store: boolean;
  temperature: number;
  text: Record<string, unknown>;
  tool_choice: unknown;
  tools: unknown[];
  top_logprobs: number;
  top_p: number;
  truncation: string;
  usage: ResponsesUsage | null;
  user: string | null;
  metadata: Record<string, string>;
}
