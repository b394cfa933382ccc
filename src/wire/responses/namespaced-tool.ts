import type { FunctionTool, IrTool } from '../../ir/index.js';
import { isRecord, readString } from '../../json/json-value.js';

/**
 * Responses `namespace` tools group functions (Codex sends `multi_agent_v1` with `spawn_agent`,
 * `wait_agent`, …) and the model calls them as `{name:"spawn_agent", namespace:"multi_agent_v1"}`;
 * Codex routes a call by both. Other wire formats have flat tool names, so in the IR a namespaced
 * function is a plain function named `<namespace>__<name>` (the separator Codex itself uses for
 * MCP and code-mode tool names) that remembers its parts in `extensions.responses`. Formats and
 * providers speaking Responses split the name again from those parts, never by parsing the name.
 */
export const namespaceSeparator = '__';

export interface NamespacedName {
  readonly namespace: string;
  readonly name: string;
}

export interface NamespaceInfo extends NamespacedName {
  readonly namespaceDescription?: string;
}

export function joinNamespacedName(namespace: string, name: string): string {
  return `${namespace}${namespaceSeparator}${name}`;
}

/** The `extensions` a flattened namespaced function carries. */
export function namespaceExtensions(info: NamespaceInfo): Readonly<Record<string, unknown>> {
  return { responses: { ...info } };
}

/** The namespace parts a flattened function remembers (undefined for an ordinary function). */
export function namespaceInfo(tool: FunctionTool): NamespaceInfo | undefined {
  const own = tool.extensions?.['responses'];
  if (!isRecord(own)) return undefined;
  const namespace = readString(own, 'namespace');
  const name = readString(own, 'name');
  if (namespace === undefined || name === undefined) return undefined;
  const namespaceDescription = readString(own, 'namespaceDescription');
  return { namespace, name, ...(namespaceDescription === undefined ? {} : { namespaceDescription }) };
}

/** The Responses name (and namespace) for a call of an IR tool named `name`. */
export function splitToolName(name: string, tools: readonly IrTool[] | undefined): { name: string; namespace?: string } {
  for (const tool of tools ?? []) {
    if (tool.type !== 'function' || tool.name !== name) continue;
    const info = namespaceInfo(tool);
    if (info !== undefined) return { name: info.name, namespace: info.namespace };
  }
  return { name };
}
