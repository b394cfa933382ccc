import type { JsonRecord } from '../json/json-value.js';
import { asArray, asNumber, asRecord, asString } from '../json/json-value.js';
import type { SimConversation, SimForcedTool, SimTool } from './sim-conversation.js';
import { CharacterCounter } from './sim-conversation.js';

/** Reads a Gemini generateContent request body; the model comes from the URL path. */
export function extractGemini(body: JsonRecord, model: string): SimConversation {
  const counter = new CharacterCounter();
  counter.add(partsText(asRecord(body.systemInstruction)?.parts));
  const contents = asArray(body.contents).map(asRecord).filter((content) => content !== undefined);

  let userText = '';
  let toolResult: string | null = null;
  for (const content of contents) {
    const parts = asArray(content.parts).map(asRecord).filter((part) => part !== undefined);
    const text = partsText(parts);
    counter.add(text);
    const responses: string[] = [];
    for (const part of parts) {
      const call = asRecord(part.functionCall);
      if (call !== undefined) counter.addJson(call.args);
      const response = asRecord(part.functionResponse);
      if (response !== undefined) responses.push(JSON.stringify(response.response ?? {}));
    }
    for (const response of responses) counter.add(response);
    // Function responses travel in a `user` turn; a `model` turn ends any pending result.
    if (content.role === 'model') {
      toolResult = null;
      continue;
    }
    toolResult = responses.length > 0 ? responses.join('\n') : null;
    if (text !== '') userText = text;
  }

  const tools: SimTool[] = [];
  for (const group of asArray(body.tools)) {
    for (const declaration of asArray(asRecord(group)?.functionDeclarations)) {
      const record = asRecord(declaration);
      const name = asString(record?.name);
      if (record !== undefined && name !== undefined) {
        tools.push({ name, schema: record.parametersJsonSchema ?? record.parameters });
      }
    }
  }
  counter.addJson(body.tools);
  const generation = asRecord(body.generationConfig);
  const thinking = asRecord(generation?.thinkingConfig);
  return {
    model,
    userText,
    toolResult,
    tools,
    forcedTool: forcedTool(body.toolConfig),
    reasoningRequested: thinking?.includeThoughts === true,
    maxOutputTokens: asNumber(generation?.maxOutputTokens) ?? null,
    inputCharacters: counter.characters,
  };
}

function partsText(parts: unknown): string {
  return asArray(parts)
    .map((part) => {
      const record = asRecord(part);
      return record?.thought === true ? undefined : asString(record?.text);
    })
    .filter((text) => text !== undefined)
    .join('\n');
}

function forcedTool(toolConfig: unknown): SimForcedTool | null {
  const config = asRecord(asRecord(toolConfig)?.functionCallingConfig);
  if (config?.mode !== 'ANY') return null;
  const name = asString(asArray(config.allowedFunctionNames)[0]);
  return name === undefined ? { kind: 'any' } : { kind: 'named', name };
}
