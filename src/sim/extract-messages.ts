import type { JsonRecord } from '../json/json-value.js';
import { asArray, asNumber, asRecord, asString } from '../json/json-value.js';
import { contentText } from './content-text.js';
import type { SimConversation, SimForcedTool, SimTool } from './sim-conversation.js';
import { CharacterCounter } from './sim-conversation.js';

/** Reads an Anthropic Messages (or count_tokens) request body. */
export function extractMessages(body: JsonRecord): SimConversation {
  const counter = new CharacterCounter();
  counter.add(contentText(body.system));
  const messages = asArray(body.messages).map(asRecord).filter((message) => message !== undefined);

  let userText = '';
  let toolResult: string | null = null;
  for (const message of messages) {
    const blocks = typeof message.content === 'string'
      ? [{ type: 'text', text: message.content }]
      : asArray(message.content).map(asRecord).filter((block) => block !== undefined);
    const texts: string[] = [];
    const results: string[] = [];
    for (const block of blocks) {
      if (block.type === 'text') texts.push(asString(block.text) ?? '');
      else if (block.type === 'tool_result') results.push(contentText(block.content));
      else if (block.type === 'tool_use') counter.addJson(block.input);
      else if (block.type === 'thinking') counter.add(asString(block.thinking));
    }
    const text = texts.join('\n');
    counter.add(text);
    for (const result of results) counter.add(result);
    // Claude Code puts a `role:"system"` message among the turns; it is context, neither side's turn.
    if (message.role === 'assistant') toolResult = null;
    if (message.role !== 'user') continue;
    toolResult = results.length > 0 ? results.join('\n') : null;
    if (texts.length > 0) userText = text;
  }

  const tools = asArray(body.tools).map(messagesTool).filter((tool) => tool !== undefined);
  counter.addJson(body.tools);
  const thinkingType = asString(asRecord(body.thinking)?.type);
  return {
    model: asString(body.model) ?? 'sim-model',
    userText,
    toolResult,
    tools,
    forcedTool: forcedTool(body.tool_choice),
    reasoningRequested: thinkingType === 'enabled' || thinkingType === 'adaptive',
    maxOutputTokens: asNumber(body.max_tokens) ?? null,
    inputCharacters: counter.characters,
  };
}

/** Server tools (`web_search_20250305`, …) carry a `type` and no schema; only custom tools are callable. */
function messagesTool(value: unknown): SimTool | undefined {
  const tool = asRecord(value);
  const name = asString(tool?.name);
  if (tool === undefined || name === undefined) return undefined;
  const type = asString(tool.type);
  if (type !== undefined && type !== 'custom') return undefined;
  return { name, schema: tool.input_schema };
}

function forcedTool(choice: unknown): SimForcedTool | null {
  const record = asRecord(choice);
  if (record?.type === 'any') return { kind: 'any' };
  const name = asString(record?.name);
  return record?.type === 'tool' && name !== undefined ? { kind: 'named', name } : null;
}
