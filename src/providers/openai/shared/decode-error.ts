import { contentRefusalCodes } from '../../../wire/content-refusal-codes.js';
import { upstreamStatusError, type GatewayError } from '../../../errors/gateway-error.js';
import { parseJson } from '../../../json/json-value.js';
import { parseChatErrorBody } from '../../../wire/chat/chat-error-body.js';

/**
 * An upstream error response as a GatewayError. The upstream's message is kept (it names the
 * problem and never holds our credential); the body is not quoted when it is not an OpenAI-style
 * error, since proxies answer with HTML that can name internal hosts.
 */
export function decodeOpenAIError(status: number, bodyText: string, headers: Readonly<Record<string, string>>): GatewayError {
  const fields = parseChatErrorBody(parseJson(bodyText));
  const message = fields?.message ?? `The upstream returned HTTP ${status}.`;
  // Safety refusals carry their meaning in `code`, not `type`: gpt-image models answer
  // `image_generation_user_error`/`moderation_blocked`, dall-e `invalid_request_error`/`content_policy_violation`.
  const upstreamType = contentRefusalCodes.has(fields?.code ?? '') ? fields?.code : (fields?.type ?? fields?.code);
  const retryAfterSeconds = retryAfter(headers);
  return upstreamStatusError(status, message, {
    ...(upstreamType === undefined ? {} : { upstreamType }),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });
}

function header(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}

/** `retry-after` as seconds or an HTTP date; OpenAI also sends `retry-after-ms`. */
function retryAfter(headers: Readonly<Record<string, string>>): number | undefined {
  const value = header(headers, 'retry-after')?.trim();
  if (value !== undefined && value !== '') {
    if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value));
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - Date.now()) / 1000));
  }
  const milliseconds = header(headers, 'retry-after-ms')?.trim();
  if (milliseconds !== undefined && /^\d+(\.\d+)?$/.test(milliseconds)) return Math.ceil(Number(milliseconds) / 1000);
  return undefined;
}
