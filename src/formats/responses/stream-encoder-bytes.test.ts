import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import type { IrStreamEvent, Usage } from '../../ir/index.js';
import type { EncodeContext } from '../client-format.js';
import { responsesFormat } from './index.js';

/**
 * Byte-exact safety net for the stream encoder: the complete SSE text of realistic IR event
 * sequences, recorded in __snapshots__/stream-encoder-bytes/ from the encoder as it was before
 * its per-event fast paths were written. Any change of a single byte (key order, escaping,
 * sequence numbers, framing) fails here; the behaviour tests live in stream-encoder.test.ts.
 */

const usage: Usage = { inputUncached: 120, cacheRead: 30, cacheWrite: 4, output: 57, reasoning: 11 };
const noUsage: Usage = { inputUncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };

function context(body: Record<string, unknown> = {}): EncodeContext {
  return { requestId: 'req_bytes-1', model: 'public-model', request: responsesFormat.decodeRequest({ model: 'alias', input: 'hi', stream: true, ...body }) };
}

const toolsContext = context({
  instructions: 'Use the tools.',
  tools: [
    { type: 'function', name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
    { type: 'custom', name: 'apply_patch' },
    { type: 'namespace', name: 'multi_agent_v1', description: 'agents', tools: [{ type: 'function', name: 'spawn_agent', parameters: { type: 'object' } }] },
  ],
  tool_choice: 'auto',
  metadata: { session: 's1' },
  reasoning: { effort: 'medium', summary: 'auto' },
});

function encodeAll(events: readonly IrStreamEvent[], encodeContext = context()): string {
  const encoder = responsesFormat.createStreamEncoder(encodeContext);
  return events.map((event) => encoder.encode(event)).join('');
}

function text(index: number, fragment: string): IrStreamEvent {
  return { type: 'block-delta', index, delta: { kind: 'text', text: fragment } };
}

function reasoning(index: number, fragment: string): IrStreamEvent {
  return { type: 'block-delta', index, delta: { kind: 'reasoning', text: fragment } };
}

function argumentsDelta(index: number, fragment: string): IrStreamEvent {
  return { type: 'block-delta', index, delta: { kind: 'tool-arguments', text: fragment } };
}

const anthropicStart: IrStreamEvent = { type: 'response-start', id: 'msg_01XFDUDYJgAACzvnptvVoYEL', model: 'claude-sonnet-4-5', created: 1760000000, usage };
const chatStart: IrStreamEvent = { type: 'response-start', id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG', model: 'gpt-4o', created: 1741570283 };

const awkwardFragments = ['Hello', ', "world"', '\n\ttab\\slash', ' café ☕', ' 👍🏽', '\u2028\u2029', '\u0000\u001f\u007f', ' </script>', '\ud800 lone', ''];

function sse(name: string): string {
  return `./__snapshots__/stream-encoder-bytes/${name}.sse`;
}

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2025-06-01T12:34:56.789Z'));
});

afterAll(() => {
  vi.useRealTimers();
});

describe('Responses stream encoder output bytes', () => {
  it('writes a long text answer with awkward characters exactly as recorded', async () => {
    const events: IrStreamEvent[] = [anthropicStart, { type: 'block-start', index: 0, block: { kind: 'text' } }];
    for (let round = 0; round < 5; round += 1) for (const fragment of awkwardFragments) events.push(text(0, fragment));
    events.push({ type: 'block-end', index: 0 }, { type: 'usage', usage }, { type: 'response-end', finish: { reason: 'stop', raw: 'end_turn' }, usage });
    await expect(encodeAll(events)).toMatchFileSnapshot(sse('text'));
  });

  it('writes reasoning, redacted reasoning and text exactly as recorded', async () => {
    const events: IrStreamEvent[] = [
      anthropicStart,
      { type: 'block-start', index: 0, block: { kind: 'reasoning' } },
      reasoning(0, 'The user wants '),
      reasoning(0, 'a "short" answer.\n'),
      { type: 'block-end', index: 0, blob: { provider: 'anthropic', value: 'EqQBCkYIBRgCKkDsig' } },
      { type: 'block-start', index: 1, block: { kind: 'reasoning', redacted: true, blob: { provider: 'anthropic', value: 'redacted-bytes' } } },
      { type: 'block-end', index: 1 },
      { type: 'block-start', index: 2, block: { kind: 'reasoning', itemId: 'rs_upstream_7' } },
      { type: 'block-end', index: 2, blob: { provider: 'openai', value: 'gAAAAABo' } },
      { type: 'block-start', index: 3, block: { kind: 'text' } },
      text(3, 'Short.'),
      text(3, ' Done.'),
      { type: 'block-end', index: 3 },
      { type: 'response-end', finish: { reason: 'stop' }, usage },
    ];
    await expect(encodeAll(events, toolsContext)).toMatchFileSnapshot(sse('reasoning-text'));
  });

  it('writes interleaved parallel, custom, namespaced and signed tool calls exactly as recorded', async () => {
    const events: IrStreamEvent[] = [
      chatStart,
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      text(0, 'Let me check.'),
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'tool-call', id: 'call_a', name: 'weather' } },
      { type: 'block-start', index: 2, block: { kind: 'tool-call', id: 'call_b', name: 'multi_agent_v1__spawn_agent', itemId: 'fc_up_2' } },
      argumentsDelta(1, '{"city":'),
      argumentsDelta(2, '{"task":"look \\"here\\""}'),
      argumentsDelta(1, '"Paris"}'),
      { type: 'block-end', index: 2 },
      { type: 'block-end', index: 1 },
      { type: 'block-start', index: 3, block: { kind: 'tool-call', id: 'call_p', name: 'apply_patch', toolKind: 'custom', itemId: 'ctc_up' } },
      argumentsDelta(3, '*** Begin Patch\n'),
      argumentsDelta(3, '*** End Patch'),
      { type: 'block-end', index: 3 },
      { type: 'block-start', index: 4, block: { kind: 'tool-call', id: 'call_g', name: 'weather', blob: { provider: 'gemini', value: 'sig-call' } } },
      argumentsDelta(4, '{"city":"Oslo"}'),
      { type: 'block-end', index: 4 },
      { type: 'block-start', index: 5, block: { kind: 'tool-call', id: 'call_e', name: 'weather' } },
      { type: 'block-end', index: 5 },
      { type: 'response-end', finish: { reason: 'tool-calls' }, usage },
    ];
    await expect(encodeAll(events, toolsContext)).toMatchFileSnapshot(sse('tool-calls'));
  });

  it('writes a mid-stream error with open items, and nothing after it, exactly as recorded', async () => {
    const events: IrStreamEvent[] = [
      anthropicStart,
      { type: 'block-start', index: 0, block: { kind: 'reasoning' } },
      reasoning(0, 'thinking'),
      { type: 'block-start', index: 1, block: { kind: 'text' } },
      text(1, 'par'),
      { type: 'block-start', index: 2, block: { kind: 'tool-call', id: 'call_x', name: 'weather' } },
      argumentsDelta(2, '{"ci'),
      { type: 'usage', usage },
      { type: 'error', error: new GatewayError('upstream_rate_limited', 'Slow "down"', { upstreamType: 'rate_limit_exceeded' }) },
      text(1, 'ignored'),
      { type: 'response-end', finish: { reason: 'stop' }, usage },
    ];
    await expect(encodeAll(events, toolsContext)).toMatchFileSnapshot(sse('error'));
  });

  it('writes length-limited, failed and start-less streams exactly as recorded', async () => {
    const incomplete = encodeAll([chatStart, { type: 'block-start', index: 0, block: { kind: 'text' } }, text(0, 'cut'), { type: 'response-end', finish: { reason: 'length', raw: 'max_tokens' }, usage }]);
    const failed = encodeAll([chatStart, { type: 'response-end', finish: { reason: 'error', raw: 'insufficient_system_resource' }, usage }]);
    const startless = encodeAll([{ type: 'usage', usage }, { type: 'block-start', index: 0, block: { kind: 'text' } }, text(0, 'hi'), { type: 'response-end', finish: { reason: 'stop' }, usage: noUsage }]);
    const errorFirst = encodeAll([{ type: 'error', error: new GatewayError('upstream_error', 'boom') }]);
    await expect([incomplete, failed, startless, errorFirst].join('')).toMatchFileSnapshot(sse('endings'));
  });

  it('ignores stray events and reopens a reused block index exactly as recorded', async () => {
    const events: IrStreamEvent[] = [
      chatStart,
      chatStart,
      text(9, 'no such block'),
      { type: 'block-end', index: 9 },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      text(0, ''),
      reasoning(0, 'wrong kind'),
      argumentsDelta(0, 'wrong kind'),
      text(0, 'first'),
      { type: 'block-start', index: 0, block: { kind: 'reasoning' } },
      text(0, 'wrong kind'),
      reasoning(0, 'second'),
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'text' } },
      { type: 'block-end', index: 1 },
      { type: 'response-end', finish: { reason: 'stop' }, usage: noUsage },
      text(1, 'after the end'),
    ];
    await expect(encodeAll(events, toolsContext)).toMatchFileSnapshot(sse('stray-events'));
  });
});
