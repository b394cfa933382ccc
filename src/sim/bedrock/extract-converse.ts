import type { JsonRecord } from '../../json/json-value.js';
import { asArray, asNumber, asRecord, asString } from '../../json/json-value.js';
import type { SimConversation, SimForcedTool, SimTool } from '../sim-conversation.js';
import { CharacterCounter } from '../sim-conversation.js';

/** A tool result's content: its text blocks, and its JSON blocks as JSON text. */
function toolResultText(content: unknown): string {
  return asArray(content)
    .map(asRecord)
    .map((block) => asString(block?.text) ?? (block?.json === undefined ? undefined : JSON.stringify(block.json)))
    .filter((text) => text !== undefined)
    .join('\n');
}

/**
 * Reads a Converse (or ConverseStream) body: `system` and `messages` of content blocks (`text`,
 * `toolUse`, `toolResult`, `reasoningContent`), `toolConfig`, `inferenceConfig.maxTokens`. The model
 * comes from the URL path.
 */
export function extractConverse(body: JsonRecord, model: string): SimConversation {
  const counter = new CharacterCounter();
  for (const block of asArray(body.system)) counter.add(asString(asRecord(block)?.text));
  let userText = '';
  let toolResult: string | null = null;
  for (const message of asArray(body.messages).map(asRecord)) {
    if (message === undefined) continue;
    const texts: string[] = [];
    const results: string[] = [];
    for (const block of asArray(message.content).map(asRecord)) {
      if (block === undefined) continue;
      const text = asString(block.text);
      if (text !== undefined) texts.push(text);
      const toolUse = asRecord(block.toolUse);
      if (toolUse !== undefined) counter.addJson(toolUse.input);
      const result = asRecord(block.toolResult);
      if (result !== undefined) results.push(toolResultText(result.content));
      counter.add(asString(asRecord(asRecord(block.reasoningContent)?.reasoningText)?.text));
    }
    const text = texts.join('\n');
    counter.add(text);
    for (const result of results) counter.add(result);
    if (message.role === 'assistant') {
      toolResult = null;
      continue;
    }
    toolResult = results.length > 0 ? results.join('\n') : null;
    if (texts.length > 0) userText = text;
  }

  const toolConfig = asRecord(body.toolConfig);
  const tools: SimTool[] = [];
  for (const tool of asArray(toolConfig?.tools)) {
    const spec = asRecord(asRecord(tool)?.toolSpec);
    const name = asString(spec?.name);
    if (spec !== undefined && name !== undefined) tools.push({ name, schema: asRecord(spec.inputSchema)?.json });
  }
  counter.addJson(toolConfig?.tools);
  return {
    model,
    userText,
    toolResult,
    tools,
    forcedTool: forcedTool(toolConfig?.toolChoice),
    reasoningRequested: asksForReasoning(asRecord(body.additionalModelRequestFields)),
    maxOutputTokens: asNumber(asRecord(body.inferenceConfig)?.maxTokens) ?? null,
    inputCharacters: counter.characters,
  };
}

function forcedTool(choice: unknown): SimForcedTool | null {
  const record = asRecord(choice);
  if (record?.any !== undefined) return { kind: 'any' };
  const name = asString(asRecord(record?.tool)?.name);
  return name === undefined ? null : { kind: 'named', name };
}

/** Each model family asks in its own field: Claude's `thinking`, Nova 2's `reasoningConfig`, gpt-oss's `reasoning_effort`. */
function asksForReasoning(fields: JsonRecord | undefined): boolean {
  const thinking = asString(asRecord(fields?.thinking)?.type);
  if (thinking === 'enabled' || thinking === 'adaptive') return true;
  if (asString(asRecord(fields?.reasoningConfig)?.type) === 'enabled') return true;
  const effort = asString(fields?.reasoning_effort);
  return effort !== undefined && effort !== 'none';
}
