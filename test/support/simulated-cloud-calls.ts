import type OpenAI from 'openai';
import { expect } from 'vitest';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { waitForLedgerEntry, type TestGateway } from './gateway-harness.js';

/**
 * What the suites driving a cloud provider on the built-in simulator share: a tool the simulator
 * calls with a harmless command, one call's single ledger entry, and its price checked.
 */
export const bashTool = {
  type: 'function' as const,
  function: { name: 'Bash', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
};

/** The same tool as a Messages client declares it. */
export const bashMessagesTool = { name: 'Bash', description: 'Run a command', input_schema: { type: 'object' as const, properties: { command: { type: 'string' } }, required: ['command'] } };

/** Runs a call and answers the one ledger entry it wrote (failing if it wrote more or none). */
export async function singleEntryOf(gateway: TestGateway, call: () => Promise<unknown>): Promise<LedgerEntry> {
  await gateway.services.ledger.flush();
  const before = (await gateway.services.storage.ledger.list({ limit: 10_000 })).length;
  await call();
  const entry = await waitForLedgerEntry(gateway, before + 1);
  expect(await gateway.services.storage.ledger.list({ limit: 10_000 })).toHaveLength(before + 1);
  return entry;
}

/** An entry charged at 1.00 USD per million input tokens and 2.00 per million output: 1 000 and 2 000 nano-USD a token. */
export function expectChargedAtOneAndTwo(entry: LedgerEntry, provider: string, upstreamModel: string): void {
  expect(entry).toMatchObject({ provider, upstreamModel, status: 200, usageEstimated: false });
  expect(entry.inputUncached).toBeGreaterThan(0);
  expect(entry.output).toBeGreaterThan(0);
  expect(entry.costNanoUsd).toBe(BigInt(entry.inputUncached * 1_000 + entry.output * 2_000));
}

/** A chat client asks for `[tool]`, streamed and not, and gets the Bash call with the simulator's command. */
export async function expectChatToolCalls(openai: OpenAI, model: string): Promise<void> {
  const messages = [{ role: 'user' as const, content: 'list files [tool]' }];
  const answer = await openai.chat.completions.create({ model, messages, tools: [bashTool] });
  expect(answer.choices[0]?.finish_reason).toBe('tool_calls');
  const call = answer.choices[0]?.message.tool_calls?.[0];
  expect(call?.type === 'function' ? call.function.name : undefined).toBe('Bash');
  expect(call?.type === 'function' ? JSON.parse(call.function.arguments) : undefined).toEqual({ command: 'echo sim-tool-ran' });

  const stream = await openai.chat.completions.create({ model, messages, tools: [bashTool], stream: true });
  let name = '';
  let argumentsText = '';
  let finish: string | null | undefined;
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta.tool_calls?.[0];
    name += delta?.function?.name ?? '';
    argumentsText += delta?.function?.arguments ?? '';
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  expect(name).toBe('Bash');
  expect(JSON.parse(argumentsText)).toEqual({ command: 'echo sim-tool-ran' });
  expect(finish).toBe('tool_calls');
}
