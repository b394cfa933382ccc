import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { responsesFormat } from '../formats/responses/index.js';
import { DeliveredText } from './delivered-text.js';

const responsesReading = { carriesText: responsesFormat.streamEventCarriesText, textOf: responsesFormat.streamEventText };

function textDelta(delta: string): string {
  return JSON.stringify({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta });
}

/** An opening event echoing instructions, as Codex's response.created does. */
function createdEvent(instructionsCharacters: number): string {
  return JSON.stringify({ type: 'response.created', response: { id: 'resp_1', instructions: 'x '.repeat(instructionsCharacters / 2), tools: [] } });
}

const words = Array.from({ length: 4_000 }, (_, index) => `word${index % 97} `);

describe('the delivered text of a passed-through stream', () => {
  it('counts only the events that can carry text, however large the others', async () => {
    const delivered = new DeliveredText(responsesReading);
    delivered.add(createdEvent(80_000));
    delivered.add(createdEvent(80_000));
    for (const word of words.slice(0, 20)) delivered.add(textDelta(word));
    expect(await delivered.countTokens()).toBe(countTokens(words.slice(0, 20).join('')));
  });

  it('is empty when no event carried text', () => {
    const delivered = new DeliveredText(responsesReading);
    delivered.add(createdEvent(1_000));
    expect(delivered.empty).toBe(true);
  });

  it('scales the count of a long stream from the text events it kept', async () => {
    const delivered = new DeliveredText(responsesReading);
    for (const word of words) delivered.add(textDelta(word));
    const exact = countTokens(words.join(''));
    const counted = await delivered.countTokens();
    expect(counted).toBeGreaterThanOrEqual(exact * 0.9);
    expect(counted).toBeLessThanOrEqual(exact * 1.1);
  });

  it('counts a single event larger than what it keeps, from the part that fits', async () => {
    const delivered = new DeliveredText(responsesReading);
    const text = words.join('').repeat(3);
    delivered.add(textDelta(text));
    const exact = countTokens(text);
    const counted = await delivered.countTokens();
    expect(counted).toBeGreaterThanOrEqual(exact * 0.9);
    expect(counted).toBeLessThanOrEqual(exact * 1.1);
  });

  it('counts plain text pieces (deltas already taken out of their events) as they are', async () => {
    const delivered = new DeliveredText();
    for (const word of words.slice(0, 50)) delivered.add(word);
    expect(await delivered.countTokens()).toBe(countTokens(words.slice(0, 50).join('')));
  });
});
