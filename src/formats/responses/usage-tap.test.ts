import { describe, expect, it } from 'vitest';
import { readStreams } from '../../wire/responses/responses-fixtures.test-support.js';
import { responsesFormat } from './index.js';
import { fixtureChunks, readJsonFixture } from '../../../test/support/fixtures.js';

function tap(lines: readonly string[], withEventNames: boolean): ReturnType<ReturnType<typeof responsesFormat.createUsageTap>['usage']> {
  const usageTap = responsesFormat.createUsageTap();
  for (const line of lines) usageTap.observe(withEventNames ? (JSON.parse(line).type as string) : undefined, line);
  return usageTap.usage();
}

describe('Responses usage tap (passthrough)', () => {
  it('reads the usage of response.completed in the recorded streams, with or without event names', () => {
    const lines = readStreams('openai/responses/openai-web-search-tool.1.chunks.txt')[0] ?? [];
    const expected = { inputUncached: 31073 - 3712, cacheRead: 3712, cacheWrite: 0, output: 4416 - 3712, reasoning: 3712 };
    expect(tap(lines, true)).toEqual(expected);
    expect(tap(lines, false)).toEqual(expected);
  });

  it('reads each step of the recorded tool loop', () => {
    const totals = readStreams('openai/responses/openai-reasoning-encrypted-content.1.chunks.txt').map((lines) => tap(lines, true));
    expect(totals.map((usage) => usage?.inputUncached)).toEqual([134, 221, 260, 299]);
  });

  it('has no usage for the failed stream, and ignores events that merely mention completion', () => {
    expect(tap(fixtureChunks('openai/responses/openai-error.1.chunks.txt'), true)).toBeUndefined();
    const usageTap = responsesFormat.createUsageTap();
    usageTap.observe('response.output_text.delta', '{"type":"response.output_text.delta","delta":"\\"type\\":\\"response.completed\\"","usage":{"input_tokens":5}}');
    expect(usageTap.usage()).toBeUndefined();
  });

  it('reads cache writes, so the ledger prices them apart', () => {
    const lines = (readStreams('openai/responses/azure-text.1.chunks.txt')[0] ?? []).map((line) =>
      line.replace('"input_tokens_details":{"cached_tokens":0}', '"input_tokens_details":{"cached_tokens":0,"cache_write_tokens":4}'),
    );
    expect(tap(lines, true)).toEqual({ inputUncached: 7, cacheRead: 0, cacheWrite: 4, output: 11, reasoning: 0 });
  });

  it('reads usage from a non-streamed body', () => {
    expect(responsesFormat.usageFromBody(readJsonFixture('openai/responses/azure-tool-call.1.json'))).toEqual({
      inputUncached: 45,
      cacheRead: 0,
      cacheWrite: 0,
      output: 24,
      reasoning: 0,
    });
    expect(responsesFormat.usageFromBody({ usage: null })).toBeUndefined();
  });
});
