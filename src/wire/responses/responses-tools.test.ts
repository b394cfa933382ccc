import { describe, expect, it } from 'vitest';
import type { IrTool } from '../../ir/index.js';
import { joinNamespacedName, namespaceExtensions, splitToolName } from './namespaced-tool.js';
import { encodeResponsesTextFormat, encodeResponsesToolChoice, encodeResponsesTools } from './responses-tools.js';

const tools: IrTool[] = [
  { type: 'function', name: 'a__one', parameters: { type: 'object' }, extensions: namespaceExtensions({ namespace: 'a', name: 'one' }) },
  { type: 'function', name: 'plain', description: 'p', parameters: { type: 'object' }, strict: true },
  { type: 'function', name: 'a__two', parameters: { type: 'object' }, extensions: namespaceExtensions({ namespace: 'a', name: 'two' }) },
  { type: 'hosted', name: 'web_search', format: 'responses', definition: { type: 'web_search' } },
  { type: 'hosted', name: 'code_execution', format: 'messages', definition: { type: 'code_execution_20250825' } },
];

describe('Responses tools', () => {
  it('groups flattened functions into one namespace at the place of the first, and keeps strict when given', () => {
    expect(encodeResponsesTools(tools)).toEqual([
      {
        type: 'namespace',
        name: 'a',
        tools: [
          { type: 'function', name: 'one', parameters: { type: 'object' }, strict: false },
          { type: 'function', name: 'two', parameters: { type: 'object' }, strict: false },
        ],
      },
      { type: 'function', name: 'plain', description: 'p', parameters: { type: 'object' }, strict: true },
      { type: 'web_search' },
    ]);
  });

  it('splits names only for functions that remember a namespace', () => {
    expect(joinNamespacedName('a', 'one')).toBe('a__one');
    expect(splitToolName('a__one', tools)).toEqual({ name: 'one', namespace: 'a' });
    expect(splitToolName('x__y', tools)).toEqual({ name: 'x__y' });
  });

  it('writes tool choices by the kind of the named tool', () => {
    expect(encodeResponsesToolChoice({ type: 'auto' }, tools)).toBe('auto');
    expect(encodeResponsesToolChoice({ type: 'tool', name: 'web_search' }, tools)).toEqual({ type: 'web_search' });
    expect(encodeResponsesToolChoice({ type: 'tool', name: 'plain' }, tools)).toEqual({ type: 'function', name: 'plain' });
  });

  it('writes json_schema flat inside text.format', () => {
    expect(encodeResponsesTextFormat({ type: 'json_schema', name: 'n', schema: { type: 'object' }, description: 'd' })).toEqual({
      type: 'json_schema',
      name: 'n',
      description: 'd',
      schema: { type: 'object' },
    });
    expect(encodeResponsesTextFormat({ type: 'json_object' })).toEqual({ type: 'json_object' });
  });
});
