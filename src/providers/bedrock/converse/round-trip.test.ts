import { describe, expect, it } from 'vitest';
import { clientFormats } from '../../../formats/registry.js';
import type { ClientFormat } from '../../../formats/client-format.js';
import { readJsonFixture } from '../../../../test/support/fixtures.js';
import { buildConverseBody, decodeConverseResponse } from './index.js';
import { novaTarget } from './converse.test-support.js';

function format(name: 'chat' | 'messages' | 'responses'): ClientFormat {
  const found = clientFormats[name];
  if (found === undefined) throw new Error(`no ${name} format`);
  return found;
}

const topSong = {
  type: 'function',
  function: {
    name: 'top_song',
    description: 'Get the most popular song played on a radio station.',
    parameters: { type: 'object', properties: { sign: { type: 'string' } }, required: ['sign'] },
  },
};

describe('a tool loop through Converse, as a chat client sees it', () => {
  it('carries the call Converse made back to Converse as the toolResult that answers it', () => {
    const chat = format('chat');
    const firstBody = { model: 'nova', messages: [{ role: 'user', content: 'What is the most popular song on WZPZ?' }], tools: [topSong] };
    const firstRequest = chat.decodeRequest(firstBody);
    const firstConverse = buildConverseBody(firstRequest, novaTarget);
    expect(firstConverse.toolConfig?.tools).toEqual([
      { toolSpec: { name: 'top_song', description: 'Get the most popular song played on a radio station.', inputSchema: { json: topSong.function.parameters } } },
    ]);

    // The documented Converse answer: one toolUse block.
    const answer = decodeConverseResponse(readJsonFixture('bedrock/converse/docs-tool-use.response.json'), firstRequest);
    const chatAnswer = chat.encodeResponse(answer, { requestId: 'req_1', model: 'nova', request: firstRequest }) as {
      choices: { message: { role: string; content: string | null; tool_calls: { id: string; type: string; function: { name: string; arguments: string } }[] }; finish_reason: string }[];
    };
    const choice = chatAnswer.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.tool_calls).toEqual([{ id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', type: 'function', function: { name: 'top_song', arguments: '{"sign":"WZPZ"}' } }]);

    // The client runs the tool and sends the whole conversation again.
    const secondBody = {
      ...firstBody,
      messages: [
        ...firstBody.messages,
        choice?.message,
        { role: 'tool', tool_call_id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', content: '{"song":"Elemental Hotel","artist":"8 Storey Hike"}' },
      ],
    };
    const secondConverse = buildConverseBody(chat.decodeRequest(secondBody), novaTarget);
    expect(secondConverse.messages).toEqual([
      { role: 'user', content: [{ text: 'What is the most popular song on WZPZ?' }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'top_song', input: { sign: 'WZPZ' } } }] },
      {
        role: 'user',
        content: [{ toolResult: { toolUseId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', content: [{ text: '{"song":"Elemental Hotel","artist":"8 Storey Hike"}' }] } }],
      },
    ]);
  });
});

describe('reasoning through Converse, as a Messages client sees it', () => {
  it('hands the signature out tagged as Bedrock\'s and sends it back to Converse unchanged on the next turn', () => {
    const messages = format('messages');
    const firstBody = { model: 'claude-on-converse', max_tokens: 2048, messages: [{ role: 'user', content: 'How many r are in strawberry?' }] };
    const firstRequest = messages.decodeRequest(firstBody);
    const recorded = readJsonFixture('bedrock/converse/amazon-bedrock-reasoning.json') as { output: { message: { content: { reasoningContent?: { reasoningText: { signature: string; text: string } } }[] } } };
    const reasoningText = recorded.output.message.content[0]?.reasoningContent?.reasoningText;
    const answer = decodeConverseResponse(recorded, firstRequest);
    const encoded = messages.encodeResponse(answer, { requestId: 'req_2', model: 'claude-on-converse', request: firstRequest }) as { content: Record<string, unknown>[] };
    expect(encoded.content[0]).toEqual({ type: 'thinking', thinking: reasoningText?.text, signature: `switchyard.v1.bedrock.signed.${reasoningText?.signature ?? ''}` });

    const secondBody = {
      ...firstBody,
      messages: [...firstBody.messages, { role: 'assistant', content: encoded.content }, { role: 'user', content: 'And in raspberry?' }],
    };
    const secondConverse = buildConverseBody(messages.decodeRequest(secondBody), novaTarget);
    expect(secondConverse.messages[1]?.content[0]).toEqual({ reasoningContent: { reasoningText: { text: reasoningText?.text, signature: reasoningText?.signature } } });
  });
});

describe('reasoning through Converse, as a Responses client sees it', () => {
  it('hands the signature out as encrypted_content tagged as Bedrock\'s and sends it back to Converse unchanged', () => {
    const responses = format('responses');
    const firstBody = { model: 'claude-on-converse', input: 'How many r are in strawberry?', store: false };
    const firstRequest = responses.decodeRequest(firstBody);
    const answer = decodeConverseResponse(readJsonFixture('bedrock/converse/amazon-bedrock-reasoning.json'), firstRequest);
    const reasoning = answer.content[0]?.type === 'reasoning' ? answer.content[0] : undefined;
    const signature = reasoning?.blob?.value;
    const encoded = responses.encodeResponse(answer, { requestId: 'req_3', model: 'claude-on-converse', request: firstRequest }) as { output: Record<string, unknown>[] };
    const reasoningItem = encoded.output.find((item) => item['type'] === 'reasoning');
    expect(reasoningItem?.['encrypted_content']).toBe(`switchyard.v1.bedrock.signed.${signature ?? ''}`);

    const secondBody = { ...firstBody, input: [{ role: 'user', content: 'How many r are in strawberry?' }, ...encoded.output, { role: 'user', content: 'And in raspberry?' }] };
    const secondConverse = buildConverseBody(responses.decodeRequest(secondBody), novaTarget);
    expect(secondConverse.messages[1]?.content[0]).toEqual({ reasoningContent: { reasoningText: { text: reasoning?.text, signature } } });
  });
});
