import { describe, expect, it } from 'vitest';
import { chatFormat } from '../formats/chat/index.js';
import { messagesFormat } from '../formats/messages/index.js';
import { responsesFormat } from '../formats/responses/index.js';
import type { ClientFormat } from '../formats/client-format.js';
import { readFixture } from '../../test/support/fixtures.js';
import { usageFromBytes } from './usage-from-bytes.js';

/** What parsing the whole answer says: the usage of its top-level `usage` member. */
function usageOfWholeAnswer(format: ClientFormat, text: string): ReturnType<ClientFormat['usageFromBody']> {
  const answer = JSON.parse(text) as Record<string, unknown>;
  return answer.usage === undefined ? undefined : format.usageFromBody({ usage: answer.usage });
}

const recorded: ReadonlyArray<readonly [ClientFormat, string]> = [
  [chatFormat, 'openai/chat/openai-text.json'],
  [chatFormat, 'openai-compatible/chat/groq-tool-call.json'],
  [chatFormat, 'openai-compatible/chat/deepseek-tool-call.json'],
  [chatFormat, 'openai-compatible/chat/xai-tool-call.json'],
  [messagesFormat, 'anthropic/messages/anthropic-text.json'],
  [messagesFormat, 'anthropic/messages/anthropic-web-search-tool.1.json'],
  [messagesFormat, 'anthropic/messages/anthropic-claude-opus-5-reasoning-high.1.json'],
  [responsesFormat, 'openai/responses/azure-tool-call.1.json'],
  [responsesFormat, 'openai/responses/openai-web-search-tool.1.json'],
  [responsesFormat, 'openai/responses/openai-reasoning-encrypted-content.1.json'],
];

const usage = '{"prompt_tokens":42,"completion_tokens":118,"total_tokens":160,"prompt_tokens_details":{"cached_tokens":7}}';
const crafted: readonly string[] = [
  `{"id":"a","usage":${usage},"service_tier":"default","system_fingerprint":"fp"}`,
  `{"id":"a","usage":${usage}}`,
  `{\n  "id": "a",\n  "usage" : ${usage.replace(/,/g, ', ')} ,\n  "x": [1, {"y": "}"}]\n}\n`,
  // A later mention inside a string, after an escaped quote: not the member.
  `{"usage":${usage},"note":"a \\"usage"}`,
  `{"usage":${usage},"note":"say \\"usage\\": {\\"prompt_tokens\\": 1}"}`,
  // The last mention is a nested member: the top-level one is earlier.
  `{"usage":${usage},"choices":[{"message":{"usage":{"prompt_tokens":1,"completion_tokens":1}}}]}`,
  `{"choices":[{"usage":{"prompt_tokens":1,"completion_tokens":1}}],"x":{"usage":{"prompt_tokens":2}}}`,
  // A top-level member whose name ends with an escaped quote and "usage".
  `{"usage":${usage},"odd\\"usage":{"prompt_tokens":5,"completion_tokens":5}}`,
  `{"id":"é “quotes” →","usage":{"prompt_tokens":3,"completion_tokens":4,"note":"ünïcode \\u00e9 \\n"},"z":"\\\\"}`,
  `{"usage":null,"id":"a"}`,
  `{"usage":5}`,
  `{"usage":"none","id":"a"}`,
  `{"usage":{"prompt_tokens":1.5e3,"completion_tokens":-0}}`,
  `{"id":"no usage here"}`,
  '{"usage":{"prompt_tokens":1,"completion_tokens":2},"usage":{"prompt_tokens":3,"completion_tokens":4}}',
];

describe('reading usage from a passed-through answer without parsing it whole', () => {
  it.each(recorded)('agrees with parsing the whole recorded answer (%s, %s)', (format, fixture) => {
    const text = readFixture(fixture);
    const expected = usageOfWholeAnswer(format, text);
    expect(expected).toBeDefined();
    expect(usageFromBytes({ format }, Buffer.from(text))).toEqual(expected);
  });

  it.each(crafted)('agrees with parsing the whole answer: %s', (text) => {
    expect(usageFromBytes({ format: chatFormat }, Buffer.from(text))).toEqual(usageOfWholeAnswer(chatFormat, text));
  });

  it('reads nothing from an answer cut short or not JSON, rather than guessing', () => {
    expect(usageFromBytes({ format: chatFormat }, Buffer.from(`{"id":"a","usage":{"prompt_tokens":4`))).toBeUndefined();
    expect(usageFromBytes({ format: chatFormat }, Buffer.from('<html>usage</html>'))).toBeUndefined();
  });
});
