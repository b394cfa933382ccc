import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import type { FormatName } from '../../ir/format-name.js';
import { foreignOutputCapFields, ownOutputCapFields } from '../../wire/output-cap-fields.js';
import { decodeChatRequest } from '../chat/decode-request.js';
import { decodeMessagesRequest } from '../messages/decode-request.js';
import { decodeResponsesRequest } from '../responses/decode-request.js';

/** A valid body of each format, every one of its own cap fields set. */
const decoders: Record<FormatName, { decode: (body: unknown) => unknown; body: Record<string, unknown> }> = {
  chat: { decode: decodeChatRequest, body: { model: 'm', messages: [{ role: 'user', content: 'hi' }], max_completion_tokens: 10, max_tokens: 10 } },
  responses: { decode: decodeResponsesRequest, body: { model: 'm', input: 'hi', max_output_tokens: 16 } },
  messages: { decode: decodeMessagesRequest, body: { model: 'm', messages: [{ role: 'user', content: 'hi' }], max_tokens: 10 } },
};

describe("each format's request decoder", () => {
  it.each(Object.keys(decoders) as FormatName[])("%s: accepts its own cap fields and refuses every other format's, naming the field and its own", (format) => {
    const { decode, body } = decoders[format];
    for (const field of ownOutputCapFields[format]) expect(body[field]).toBeDefined();
    expect(() => decode(body)).not.toThrow();
    for (const field of foreignOutputCapFields(format)) {
      let refusal: unknown;
      try {
        decode({ ...body, [field]: 5 });
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(GatewayError);
      expect(refusal).toMatchObject({ code: 'unsupported_parameter', param: field });
      expect((refusal as GatewayError).message).toContain(ownOutputCapFields[format][0] as string);
      // A null sets no cap, so it is no conflict.
      expect(() => decode({ ...body, [field]: null })).not.toThrow();
    }
  });
});
