import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { FormatName } from '../../src/ir/format-name.js';
import { answerFromChat, answerFromMessages, answerFromResponses, type ClientAnswer } from './matrix-answers.js';

/** One turn's outcome: the normalised answer, the SDK object (for echoing) and the gateway's request id. */
export interface TurnResult {
  readonly answer: ClientAnswer;
  readonly raw: unknown;
  readonly requestId: string;
}

export interface TurnOptions {
  readonly model: string;
  readonly stream: boolean;
  /** Ask for reasoning the way the format does (chat reasoning_effort, Responses reasoning, Messages thinking). */
  readonly reasoning: boolean;
}

/**
 * Drives one client format through its official SDK, and continues a conversation the way that
 * client does: the assistant's answer echoed as the SDK returned it, then the tool results.
 */
export interface FormatDriver {
  readonly format: FormatName;
  start(prompt: string): unknown[];
  run(conversation: readonly unknown[], options: TurnOptions): Promise<TurnResult>;
  /** The next turn: the answer echoed, a result for every tool call (or `followUp` as a user turn). */
  continueWith(conversation: readonly unknown[], turn: TurnResult, toolOutput: string, followUp: string): unknown[];
}

const weatherSchema = { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] };
const clockSchema = { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] };
const toolDefinitions = [
  { name: 'weather', description: 'Weather at a place', schema: weatherSchema },
  { name: 'clock', description: 'Local time in a zone', schema: clockSchema },
];

/** SDK clients that remember the gateway's x-request-id of their latest call (`fetchImplementation` stands in for the network in unit tests). */
export function createSdkClients(
  gatewayUrl: string,
  fetchImplementation: (input: string | URL | Request, init?: RequestInit) => Promise<Response> = fetch,
): { openai: OpenAI; anthropic: Anthropic; lastRequestId: () => string } {
  let requestId = '';
  const recordingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetchImplementation(input, init);
    requestId = response.headers.get('x-request-id') ?? '';
    return response;
  };
  return {
    openai: new OpenAI({ baseURL: `${gatewayUrl}/v1`, apiKey: 'matrix', maxRetries: 0, fetch: recordingFetch }),
    anthropic: new Anthropic({ baseURL: gatewayUrl, apiKey: 'matrix', maxRetries: 0, fetch: recordingFetch }),
    lastRequestId: () => requestId,
  };
}

type Clients = ReturnType<typeof createSdkClients>;

export function chatDriver(clients: Clients): FormatDriver {
  const tools: OpenAI.Chat.ChatCompletionTool[] = toolDefinitions.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.schema },
  }));
  return {
    format: 'chat',
    start: (prompt) => [{ role: 'user', content: prompt }],
    async run(conversation, options) {
      const params = {
        model: options.model,
        messages: conversation as OpenAI.Chat.ChatCompletionMessageParam[],
        tools,
        ...(options.reasoning ? { reasoning_effort: 'low' as const } : {}),
      };
      if (!options.stream) {
        const completion = await clients.openai.chat.completions.create(params);
        return { answer: answerFromChat(completion), raw: completion, requestId: clients.lastRequestId() };
      }
      const stream = clients.openai.chat.completions.stream({ ...params, stream_options: { include_usage: true } });
      let reasoning = '';
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta as { reasoning_content?: unknown } | undefined;
        if (typeof delta?.reasoning_content === 'string') reasoning += delta.reasoning_content;
      }
      const completion = await stream.finalChatCompletion();
      return { answer: answerFromChat(completion, reasoning), raw: completion, requestId: clients.lastRequestId() };
    },
    continueWith(conversation, turn, toolOutput, followUp) {
      const message = (turn.raw as OpenAI.Chat.ChatCompletion).choices[0]!.message;
      const calls = message.tool_calls ?? [];
      const results = calls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: toolOutput }));
      return [...conversation, message, ...(results.length > 0 ? results : [{ role: 'user', content: followUp }])];
    },
  };
}

export function responsesDriver(clients: Clients): FormatDriver {
  const tools: OpenAI.Responses.FunctionTool[] = toolDefinitions.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.schema,
    strict: false,
  }));
  return {
    format: 'responses',
    start: (prompt) => [{ role: 'user', content: prompt }],
    async run(conversation, options) {
      const params = {
        model: options.model,
        input: conversation as OpenAI.Responses.ResponseInput,
        tools,
        store: false,
        ...(options.reasoning ? { reasoning: { effort: 'low' as const, summary: 'auto' as const }, include: ['reasoning.encrypted_content' as const] } : {}),
      };
      const response = options.stream
        ? await clients.openai.responses.stream(params).finalResponse()
        : await clients.openai.responses.create(params);
      return { answer: answerFromResponses(response), raw: response, requestId: clients.lastRequestId() };
    },
    continueWith(conversation, turn, toolOutput, followUp) {
      const output = (turn.raw as OpenAI.Responses.Response).output;
      const results = output.flatMap((item) => (item.type === 'function_call' ? [{ type: 'function_call_output', call_id: item.call_id, output: toolOutput }] : []));
      return [...conversation, ...output, ...(results.length > 0 ? results : [{ role: 'user', content: followUp }])];
    },
  };
}

export function messagesDriver(clients: Clients): FormatDriver {
  const tools: Anthropic.Tool[] = toolDefinitions.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', properties: tool.schema.properties, required: tool.schema.required },
  }));
  return {
    format: 'messages',
    start: (prompt) => [{ role: 'user', content: prompt }],
    async run(conversation, options) {
      const params = {
        model: options.model,
        max_tokens: 4096,
        messages: conversation as Anthropic.MessageParam[],
        tools,
        ...(options.reasoning ? { thinking: { type: 'enabled' as const, budget_tokens: 1024 } } : {}),
      };
      const message = options.stream
        ? await clients.anthropic.messages.stream(params).finalMessage()
        : await clients.anthropic.messages.create(params);
      return { answer: answerFromMessages(message), raw: message, requestId: clients.lastRequestId() };
    },
    continueWith(conversation, turn, toolOutput, followUp) {
      const content = (turn.raw as Anthropic.Message).content;
      const results = content.flatMap((block) => (block.type === 'tool_use' ? [{ type: 'tool_result', tool_use_id: block.id, content: toolOutput }] : []));
      return [
        ...conversation,
        { role: 'assistant', content },
        { role: 'user', content: results.length > 0 ? results : followUp },
      ];
    },
  };
}

export function driverFor(format: FormatName, clients: Clients): FormatDriver {
  if (format === 'chat') return chatDriver(clients);
  if (format === 'responses') return responsesDriver(clients);
  return messagesDriver(clients);
}
