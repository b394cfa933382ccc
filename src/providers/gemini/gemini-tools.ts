import type { IrRequest, ToolChoice } from '../../ir/index.js';
import type {
  GeminiFunctionDeclaration,
  GeminiToolConfig,
} from './wire/generate-content-request.js';
import { customToolDeclaration } from './gemini-custom-tools.js';

export interface GeminiToolsSection {
  readonly tools?: readonly Readonly<Record<string, unknown>>[];
  readonly toolConfig?: GeminiToolConfig;
}

/**
 * IR tools → one `functionDeclarations` tool + `toolConfig`.
 *
 * Schemas go in `parametersJsonSchema`, not `parameters`: `parameters` takes only Gemini's
 * OpenAPI subset and refuses common JSON Schema keywords (`$schema`, `additionalProperties`,
 * `$ref`, …) that clients send, while `parametersJsonSchema` takes a full JSON Schema as is.
 *
 * Hosted tools of other formats (OpenAI `web_search`, Anthropic server tools) have no Gemini
 * meaning and are left out; a hosted tool written for Gemini itself is passed as its definition.
 * Gemini has no switch for parallel calls, so `parallelToolCalls` has nothing to map to.
 */
export function buildGeminiTools(request: IrRequest): GeminiToolsSection {
  const declarations: GeminiFunctionDeclaration[] = [];
  const nativeTools: Readonly<Record<string, unknown>>[] = [];
  for (const tool of request.tools ?? []) {
    if (tool.type === 'function') {
      const declaration: GeminiFunctionDeclaration = { name: tool.name, parametersJsonSchema: tool.parameters };
      declarations.push(tool.description === undefined ? declaration : { ...declaration, description: tool.description });
    } else if (tool.type === 'custom') {
      declarations.push(customToolDeclaration(tool));
    } else if (tool.format === 'gemini') {
      nativeTools.push(tool.definition);
    }
  }
  const tools = declarations.length > 0 ? [{ functionDeclarations: declarations }, ...nativeTools] : nativeTools;
  if (tools.length === 0) return {};
  // tool_choice only concerns function declarations.
  const toolConfig = declarations.length > 0 && request.toolChoice ? toolConfigFor(request.toolChoice) : undefined;
  return toolConfig === undefined ? { tools } : { tools, toolConfig };
}

function toolConfigFor(choice: ToolChoice): GeminiToolConfig {
  switch (choice.type) {
    case 'auto':
      return { functionCallingConfig: { mode: 'AUTO' } };
    case 'none':
      return { functionCallingConfig: { mode: 'NONE' } };
    case 'required':
      return { functionCallingConfig: { mode: 'ANY' } };
    case 'tool':
      return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
  }
}
