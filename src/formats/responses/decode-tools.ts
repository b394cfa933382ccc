import type { FunctionTool, IrTool, ToolChoice } from '../../ir/index.js';
import { joinNamespacedName, namespaceExtensions } from '../../wire/responses/namespaced-tool.js';
import { parseOrThrow } from '../validation/openai-parse-or-throw.js';
import { customToolSchema, functionToolSchema, namespaceToolSchema, type ResponsesToolChoiceInput } from './responses-request-schema.js';

/** Responses allows `parameters: null` (no arguments); the IR always carries a schema. */
const noParameters = { type: 'object', properties: {} } as const;

type ToolInput = Record<string, unknown> & { type: string };

/**
 * Responses tools as IR tools. Functions inside a `namespace` tool are flattened into functions
 * named `<namespace>__<name>` that remember their parts (see wire/responses/namespaced-tool.ts);
 * every type other than function, custom and namespace is a hosted tool only a Responses upstream
 * can serve (web_search, tool_search, file_search, image_generation, mcp, shell, …).
 */
export function decodeTools(tools: readonly ToolInput[]): IrTool[] {
  const decoded: IrTool[] = [];
  tools.forEach((tool, index) => {
    const path = ['tools', index] as const;
    if (tool.type === 'function') {
      decoded.push(decodeFunction(parseOrThrow(functionToolSchema, tool, path)));
    } else if (tool.type === 'custom') {
      decoded.push(decodeCustom(parseOrThrow(customToolSchema, tool, path)));
    } else if (tool.type === 'namespace') {
      const namespace = parseOrThrow(namespaceToolSchema, tool, path);
      namespace.tools.forEach((inner, innerIndex) => {
        const innerPath = [...path, 'tools', innerIndex] as const;
        const info = {
          namespace: namespace.name,
          ...(namespace.description ? { namespaceDescription: namespace.description } : {}),
        };
        if (inner.type === 'custom') {
          // Custom tools have no extensions slot in the IR: the namespace cannot be remembered.
          const custom = decodeCustom(parseOrThrow(customToolSchema, inner, innerPath));
          decoded.push({ ...custom, name: joinNamespacedName(namespace.name, custom.name) });
          return;
        }
        const definition = decodeFunction(parseOrThrow(functionToolSchema, inner, innerPath));
        decoded.push({
          ...definition,
          name: joinNamespacedName(namespace.name, definition.name),
          extensions: namespaceExtensions({ ...info, name: definition.name }),
        });
      });
    } else {
      decoded.push({ type: 'hosted', name: tool.type, format: 'responses', definition: tool });
    }
  });
  return decoded;
}

function decodeFunction(tool: {
  name: string;
  description?: string | null | undefined;
  parameters?: Record<string, unknown> | null | undefined;
  strict?: boolean | null | undefined;
}): FunctionTool {
  return {
    type: 'function',
    name: tool.name,
    parameters: tool.parameters ?? noParameters,
    ...(tool.description ? { description: tool.description } : {}),
    ...(typeof tool.strict === 'boolean' ? { strict: tool.strict } : {}),
  };
}

function decodeCustom(tool: { name: string; description?: string | null | undefined; format?: Record<string, unknown> | null | undefined }): IrTool {
  return {
    type: 'custom',
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    ...(tool.format ? { format: tool.format } : {}),
  };
}

/**
 * Responses `tool_choice` in IR terms. A hosted tool is chosen by its type, which is the IR
 * hosted tool's name; `allowed_tools` has no IR form: its mode is used and the original is kept
 * in `extensions.responses` (see decode-request.ts) for a Responses upstream.
 */
export function decodeToolChoice(choice: ResponsesToolChoiceInput): ToolChoice {
  if (typeof choice === 'string') return { type: choice };
  if (choice.type === 'allowed_tools' && (choice['mode'] === 'auto' || choice['mode'] === 'required')) return { type: choice['mode'] };
  const name = choice['name'];
  if ((choice.type === 'function' || choice.type === 'custom') && typeof name === 'string') return { type: 'tool', name };
  return { type: 'tool', name: choice.type };
}
