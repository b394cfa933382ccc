import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import type { IrRequest } from '../../ir/index.js';
import { responsesFormat, responsesInputExtensionKey } from './index.js';
import { fixtureChunks } from '../../../test/support/fixtures.js';

interface RecordedRequest {
  readonly seq: number;
  readonly kind: string;
  readonly path?: string;
  readonly body?: Record<string, unknown>;
}

function recordedBodies(file: string): Record<string, unknown>[] {
  return fixtureChunks(`clients/${file}`)
    .map((line) => JSON.parse(line) as RecordedRequest)
    .filter((entry) => entry.kind === 'request' && entry.path === '/v1/responses' && entry.body !== undefined)
    .map((entry) => entry.body ?? {});
}

const codexBodies = recordedBodies('codex-cli.jsonl');

function decodeError(body: unknown): GatewayError {
  try {
    responsesFormat.decodeRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected the request to be refused');
}

function findBody(predicate: (body: Record<string, unknown>) => boolean): IrRequest {
  const body = codexBodies.find(predicate);
  if (body === undefined) throw new Error('no such recorded body');
  return responsesFormat.decodeRequest(body);
}

const inputTypes = (body: Record<string, unknown>): unknown[] => (Array.isArray(body['input']) ? body['input'].map((item: { type?: unknown }) => item.type) : []);

describe('Responses request decoding of recorded Codex CLI bodies', () => {
  it('decodes every recorded Codex body', () => {
    expect(codexBodies.length).toBe(7);
    for (const body of codexBodies) {
      const request = responsesFormat.decodeRequest(body);
      expect(request.stream).toBe(true);
      expect(request.parallelToolCalls).toBe(true);
      expect(request.toolChoice).toEqual({ type: 'auto' });
      expect(request.extensions['responses']).toMatchObject({ store: false, include: ['reasoning.encrypted_content'], prompt_cache_key: body['prompt_cache_key'] });
      expect(request.extensions['responses']?.['client_metadata']).toEqual(body['client_metadata']);
    }
  });

  it('keeps developer messages apart from system turns and Codex has no instructions', () => {
    const request = findBody((body) => inputTypes(body).length === 4);
    expect(request.messages.map((message) => [message.role, message.developer === true])).toEqual([
      ['system', true],
      ['system', true],
      ['user', false],
      ['user', false],
    ]);
    expect(request.messages[3]?.content).toEqual([{ type: 'text', text: 'say hi' }]);
    expect(request.reasoning).toEqual({ summary: 'auto' });
  });

  it('flattens the namespace tool, keeps web_search hosted and functions as they were', () => {
    const request = findBody((body) => body['model'] === 'gpt-fake');
    const tools = request.tools ?? [];
    expect(tools.map((tool) => `${tool.type}:${tool.name}`)).toEqual([
      'function:exec_command',
      'function:write_stdin',
      'function:request_user_input',
      'function:view_image',
      'function:multi_agent_v1__close_agent',
      'function:multi_agent_v1__resume_agent',
      'function:multi_agent_v1__send_input',
      'function:multi_agent_v1__spawn_agent',
      'function:multi_agent_v1__wait_agent',
      'function:get_goal',
      'function:create_goal',
      'function:update_goal',
      'hosted:web_search',
    ]);
    const spawn = tools.find((tool) => tool.name === 'multi_agent_v1__spawn_agent');
    expect(spawn).toMatchObject({
      strict: false,
      extensions: { responses: { namespace: 'multi_agent_v1', name: 'spawn_agent', namespaceDescription: 'Tools for spawning and managing sub-agents.' } },
    });
    expect(tools.at(-1)).toEqual({ type: 'hosted', name: 'web_search', format: 'responses', definition: { type: 'web_search', external_web_access: false } });
  });

  it('decodes the gpt-5.5 tools: custom apply_patch with its lark grammar and tool_search', () => {
    const request = findBody((body) => body['model'] === 'gpt-5.5');
    const patch = request.tools?.find((tool) => tool.name === 'apply_patch');
    expect(patch).toMatchObject({ type: 'custom', format: { type: 'grammar', syntax: 'lark' } });
    expect(patch?.type === 'custom' && String(patch.format?.['definition'])).toContain('start: begin_patch hunk+ end_patch');
    expect(request.tools?.find((tool) => tool.name === 'tool_search')).toMatchObject({ type: 'hosted', format: 'responses', definition: { execution: 'client' } });
    expect(request.reasoning).toEqual({ effort: 'medium' });
    expect(request.extensions['responses']?.['text']).toEqual({ verbosity: 'low' });
    expect(request.responseFormat).toBeUndefined();
  });

  it('turns an echoed function call and its output into an assistant call and a tool turn', () => {
    const request = findBody((body) => inputTypes(body).includes('function_call') && !inputTypes(body).includes('reasoning'));
    expect(request.messages.slice(4)).toEqual([
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            id: 'call_c0ef61a8b2a5a87e',
            name: 'exec_command',
            arguments: '{"cmd":"echo hello-from-tool && uname -s"}',
            itemId: 'fc_1b4b10a53f227ab6',
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            callId: 'call_c0ef61a8b2a5a87e',
            name: 'exec_command',
            content: 'Chunk ID: f3545d\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 6\nOutput:\nhello-from-tool\nLinux\n',
          },
        ],
      },
    ]);
  });

  it('keeps the reasoning item with its encrypted content in the same assistant turn as the call', () => {
    const request = findBody((body) => inputTypes(body).includes('reasoning'));
    const assistant = request.messages[4];
    expect(assistant?.role).toBe('assistant');
    expect(assistant?.content[0]).toEqual({
      type: 'reasoning',
      text: '**Thinking** about it',
      blob: { provider: 'openai', value: 'ENC-resp_d3d1ea208c2e093c' },
      itemId: 'rs_524e357b995f0135',
    });
    expect(assistant?.content[1]).toMatchObject({ type: 'tool-call', id: 'call_ee011543fbc57ab7', itemId: 'fc_da0fc8defd523b35' });
  });

  it('decodes a custom tool call (raw patch) and its output', () => {
    const request = findBody((body) => inputTypes(body).includes('custom_tool_call'));
    expect(request.messages.slice(4)).toEqual([
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            id: 'call_1195c29cd4cb033b',
            name: 'apply_patch',
            arguments: '*** Begin Patch\n*** Add File: hello.txt\n+hi from patch\n*** End Patch\n',
            kind: 'custom',
            itemId: 'ctc_95208131725284bf',
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            callId: 'call_1195c29cd4cb033b',
            name: 'apply_patch',
            kind: 'custom',
            content: 'Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA hello.txt\n',
          },
        ],
      },
    ]);
  });
});

describe('Responses request decoding of SDK bodies', () => {
  it('decodes the openai and AI SDK bodies; instructions lead as a system turn', () => {
    const bodies = [...recordedBodies('openai-sdk.jsonl'), ...recordedBodies('ai-sdk.jsonl')];
    expect(bodies.length).toBe(5);
    const decoded = bodies.map((body) => responsesFormat.decodeRequest(body));
    expect(decoded[0]?.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'be brief' }] },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    ]);
    for (const request of decoded.slice(1)) expect(request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    expect(decoded.map((request) => request.stream)).toEqual([false, true, true, false, true]);
  });

  it('maps content parts, params, text format and tool choices', () => {
    const request = responsesFormat.decodeRequest({
      model: 'm',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'high' },
            { type: 'input_image', file_id: 'file-1' },
            { type: 'input_file', file_data: 'data:application/pdf;base64,JVBER', filename: 'a.pdf' },
          ],
        },
        { role: 'assistant', content: [{ type: 'output_text', text: 'a' }, { type: 'refusal', refusal: 'b' }] },
        { type: 'function_call', call_id: 'c1', name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: '{}' },
      ],
      text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } },
      max_output_tokens: 50,
      temperature: 0.2,
      top_p: 0.5,
      user: 'u',
      metadata: { k: 'v' },
      tool_choice: { type: 'function', name: 'spawn_agent' },
      reasoning: { effort: 'none' },
    });
    expect(request.messages[0]?.content).toEqual([
      { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' }, detail: 'high' },
      { type: 'image', source: { kind: 'file', fileId: 'file-1' } },
      { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBER' }, filename: 'a.pdf' },
    ]);
    expect(request.messages[1]?.content).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
      { type: 'tool-call', id: 'c1', name: 'multi_agent_v1__spawn_agent', arguments: '{}' },
    ]);
    expect(request.responseFormat).toEqual({ type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true });
    expect(request.params).toEqual({ maxOutputTokens: 50, temperature: 0.2, topP: 0.5 });
    expect(request.toolChoice).toEqual({ type: 'tool', name: 'spawn_agent' });
    expect(request.reasoning).toEqual({ effort: 'none', enabled: false });
    expect(request).toMatchObject({ user: 'u', metadata: { k: 'v' } });
  });

  it('keeps hosted and allowed_tools choices whole for a Responses upstream', () => {
    const hosted = responsesFormat.decodeRequest({ model: 'm', input: 'x', tool_choice: { type: 'web_search' } });
    expect(hosted.toolChoice).toEqual({ type: 'tool', name: 'web_search' });
    const allowed = { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'a' }] };
    const request = responsesFormat.decodeRequest({ model: 'm', input: 'x', tool_choice: allowed });
    expect(request.toolChoice).toEqual({ type: 'required' });
    expect(request.extensions['responses']?.['tool_choice']).toEqual(allowed);
  });

  it('keeps item references and items of other kinds in extensions, by input position', () => {
    const request = responsesFormat.decodeRequest({
      model: 'm',
      previous_response_id: 'resp_prev',
      input: [{ type: 'item_reference', id: 'msg_old' }, { type: 'web_search_call', id: 'ws_1', status: 'completed' }, { role: 'user', content: 'next' }],
    });
    expect(request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'next' }] }]);
    expect(request.extensions[responsesInputExtensionKey]).toEqual({
      itemReferences: [{ index: 0, id: 'msg_old' }],
      otherItems: [{ index: 1, item: { type: 'web_search_call', id: 'ws_1', status: 'completed' } }],
    });
    expect(request.extensions['responses']).toEqual({ previous_response_id: 'resp_prev' });
  });
});

describe('Responses request validation', () => {
  it.each<[string, unknown, string, string]>([
    ['a body that is not an object', [], 'invalid_request', ''],
    ['a missing model', { input: 'x' }, 'missing_field', 'model'],
    ['an input that is a number', { model: 'm', input: 3 }, 'invalid_field', 'input'],
    ['an input item that is not an object', { model: 'm', input: ['x'] }, 'invalid_field', 'input[0]'],
    ['a call output without call_id', { model: 'm', input: [{ role: 'user', content: 'a' }, { type: 'function_call_output', output: 'x' }] }, 'missing_field', 'input[1].call_id'],
    ['a function call without arguments', { model: 'm', input: [{ type: 'function_call', call_id: 'c', name: 'f' }] }, 'missing_field', 'input[0].arguments'],
    ['an unknown role', { model: 'm', input: [{ role: 'robot', content: 'a' }] }, 'invalid_field', 'input[0].role'],
    ['an unknown content part', { model: 'm', input: [{ role: 'user', content: [{ type: 'input_video' }] }] }, 'invalid_field', 'input[0].content[0].type'],
    ['an image with neither url nor file', { model: 'm', input: [{ role: 'user', content: [{ type: 'input_image' }] }] }, 'missing_field', 'input[0].content[0].image_url'],
    ['an image URL that is not http', { model: 'm', input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'ftp://x' }] }] }, 'invalid_field', 'input[0].content[0].image_url'],
    ['a function tool without a name', { model: 'm', input: 'x', tools: [{ type: 'function', parameters: {} }] }, 'missing_field', 'tools[0].name'],
    ['a bad function inside a namespace', { model: 'm', input: 'x', tools: [{ type: 'namespace', name: 'n', tools: [{ type: 'function' }] }] }, 'missing_field', 'tools[0].tools[0].name'],
    ['a temperature out of range', { model: 'm', input: 'x', temperature: 3 }, 'invalid_field', 'temperature'],
    ['a bad reasoning effort', { model: 'm', input: 'x', reasoning: { effort: 'huge' } }, 'invalid_field', 'reasoning.effort'],
    ['a json_schema format without schema', { model: 'm', input: 'x', text: { format: { type: 'json_schema', name: 'a' } } }, 'missing_field', 'text.format.schema'],
  ])('refuses %s with 400 and the param name', (_name, body, code, param) => {
    const error = decodeError(body);
    expect(error.status).toBe(400);
    expect(error.code).toBe(code);
    if (param !== '') expect(error.param).toBe(param);
  });
});
