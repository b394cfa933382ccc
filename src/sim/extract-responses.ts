import type { JsonRecord } from '../json/json-value.js';
import { asArray, asNumber, asRecord, asString } from '../json/json-value.js';
import { contentText } from './content-text.js';
import type { SimConversation, SimForcedTool, SimTool } from './sim-conversation.js';
import { CharacterCounter } from './sim-conversation.js';

const toolOutputTypes = new Set(['function_call_output', 'custom_tool_call_output']);

/** Reads an OpenAI Responses request body. */
export function extractResponses(body: JsonRecord): SimConversation {
  const counter = new CharacterCounter();
  counter.add(asString(body.instructions));
  const items = typeof body.input === 'string'
    ? [{ role: 'user', content: body.input }]
    : asArray(body.input).map(asRecord).filter((item) => item !== undefined);

  let userText = '';
  for (const item of items) {
    const type = asString(item.type) ?? 'message';
    if (type === 'message') {
      const text = contentText(item.content);
      counter.add(text);
      if (item.role === 'user') userText = text;
    } else if (toolOutputTypes.has(type)) {
      counter.add(outputText(item.output));
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      counter.add(asString(item.arguments) ?? asString(item.input));
    } else if (type === 'reasoning') {
      for (const part of asArray(item.summary)) counter.add(asString(asRecord(part)?.text));
    }
  }

  const trailing: string[] = [];
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = items[index];
    if (item === undefined || !toolOutputTypes.has(asString(item.type) ?? '')) break;
    trailing.unshift(outputText(item.output));
  }

  const tools = asArray(body.tools).map(responsesTool).filter((tool) => tool !== undefined);
  counter.addJson(body.tools);
  const reasoning = asRecord(body.reasoning);
  const effort = asString(reasoning?.effort);
  return {
    model: asString(body.model) ?? 'sim-model',
    userText,
    toolResult: trailing.length > 0 ? trailing.join('\n') : null,
    tools,
    forcedTool: forcedTool(body.tool_choice),
    reasoningRequested: reasoning !== undefined && (effort ?? 'medium') !== 'none',
    maxOutputTokens: asNumber(body.max_output_tokens) ?? null,
    inputCharacters: counter.characters,
  };
}

function outputText(output: unknown): string {
  return typeof output === 'string' ? output : contentText(output);
}

/** Function tools are flat here; built-in tools (web_search, …) have no name and are skipped. */
function responsesTool(value: unknown): SimTool | undefined {
  const tool = asRecord(value);
  const name = asString(tool?.name);
  if (tool === undefined || name === undefined) return undefined;
  return { name, schema: tool.parameters };
}

function forcedTool(choice: unknown): SimForcedTool | null {
  if (choice === 'required') return { kind: 'any' };
  const record = asRecord(choice);
  const name = asString(record?.name);
  return record?.type === 'function' && name !== undefined ? { kind: 'named', name } : null;
}
