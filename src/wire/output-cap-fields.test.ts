import { describe, expect, it } from 'vitest';
import { foreignOutputCapFields, ownOutputCapFields } from './output-cap-fields.js';

describe('output cap fields', () => {
  it("names each format's own cap fields, the one to suggest first", () => {
    expect(ownOutputCapFields).toEqual({ chat: ['max_completion_tokens', 'max_tokens'], responses: ['max_output_tokens'], messages: ['max_tokens'] });
  });

  it("gives a format as foreign every other format's cap field that it does not name itself", () => {
    expect(foreignOutputCapFields('chat')).toEqual(['max_output_tokens']);
    expect(foreignOutputCapFields('responses')).toEqual(['max_completion_tokens', 'max_tokens']);
    expect(foreignOutputCapFields('messages')).toEqual(['max_completion_tokens', 'max_output_tokens']);
  });
});
