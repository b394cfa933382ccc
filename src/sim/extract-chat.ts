import type { JsonRecord } from '../json/json-value.js';
import { asArray, asNumber, asRecord, asString } from '../json/json-value.js';
import { contentText } from './content-text.js';
import type { SimConversation, SimForcedTool, SimTool } from './sim-conversation.js';
import { CharacterCounter } from './sim-conversation.js';

/** Reads an OpenAI Chat Completions request body. */
export function extractChat(body: JsonRecord): SimConversation {
  const counter = new CharacterCounter();
  const messages = asArray(body.messages).map(asRecord).filter((message) => message !== undefined);
  let userText = '';
  for (const message of messages) {
    const text = contentText(message.content);
    counter.add(text);
    for (const call of asArray(message.tool_calls)) {
      counter.add(asString(asRecord(asRecord(call)?.function)?.arguments));
    }
    if (message.role === 'user') userText = text;
  }

  const trailing: string[] = [];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'tool' && message?.role !== 'function') break;
    trailing.unshift(contentText(message.content));
  }

  const tools = asArray(body.tools).map(chatTool).filter((tool) => tool !== undefined);
  counter.addJson(body.tools);
  const effort = asString(body.reasoning_effort);
  return {
    model: asString(body.model) ?? 'sim-model',
    userText,
    toolResult: trailing.length > 0 ? trailing.join('\n') : null,
    tools,
    forcedTool: forcedTool(body.tool_choice),
    reasoningRequested: effort !== undefined && effort !== 'none',
    maxOutputTokens: asNumber(body.max_completion_tokens) ?? asNumber(body.max_tokens) ?? null,
    inputCharacters: counter.characters,
  };
}

function chatTool(value: unknown): SimTool | undefined {
  const tool = asRecord(value);
  const definition = asRecord(tool?.function) ?? tool;
  const name = asString(definition?.name);
  return name === undefined ? undefined : { name, schema: definition?.parameters };
}

function forcedTool(choice: unknown): SimForcedTool | null {
  if (choice === 'required') return { kind: 'any' };
  const name = asString(asRecord(asRecord(choice)?.function)?.name);
  return name === undefined ? null : { kind: 'named', name };
}
