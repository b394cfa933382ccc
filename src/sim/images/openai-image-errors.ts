/** OpenAI's 400 bodies for image requests, worded as the API words its validation errors. */

export interface OpenAiImageError {
  readonly status: number;
  readonly body: { readonly error: Readonly<Record<string, unknown>> };
}

export function invalidRequest(message: string, param: string | null, code: string | null): OpenAiImageError {
  return { status: 400, body: { error: { message, type: 'invalid_request_error', param, code } } };
}

export function missingParameter(param: string): OpenAiImageError {
  return invalidRequest(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
}

/** The recorded answer of gpt-image models to `response_format` (and to any parameter they lack). */
export function unknownParameter(param: string): OpenAiImageError {
  return invalidRequest(`Unknown parameter: '${param}'.`, param, 'unknown_parameter');
}

export function invalidValue(param: string, value: string, allowed: readonly string[]): OpenAiImageError {
  const quoted = allowed.map((entry) => `'${entry}'`);
  const list = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1) ?? ''}` : (quoted[0] ?? '');
  return invalidRequest(`Invalid value: '${value}'. Supported values are: ${list}.`, param, 'invalid_value');
}

export function invalidType(param: string, expected: string, got: string): OpenAiImageError {
  return invalidRequest(`Invalid type for '${param}': expected ${expected}, but got ${got} instead.`, param, 'invalid_type');
}

export function integerOutOfRange(param: string, value: number, minimum: number, maximum: number): OpenAiImageError {
  if (value < minimum) {
    return invalidRequest(
      `Invalid '${param}': integer below minimum value. Expected a value >= ${minimum}, but got ${value} instead.`,
      param,
      'integer_below_min_value',
    );
  }
  return invalidRequest(
    `Invalid '${param}': integer above maximum value. Expected a value <= ${maximum}, but got ${value} instead.`,
    param,
    'integer_above_max_value',
  );
}

/**
 * The content-policy refusal of the gpt-image models, as clients have recorded it: type
 * `image_generation_user_error`, code `moderation_blocked`, the request id inside the message.
 */
export function moderationBlocked(requestId: string): OpenAiImageError {
  const message =
    'Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com ' +
    `and include the request ID ${requestId}. safety_violations=[violence].`;
  return {
    status: 400,
    body: {
      error: {
        message,
        type: 'image_generation_user_error',
        param: null,
        code: 'moderation_blocked',
        moderation_details: { moderation_stage: 'input', categories: ['violence'] },
      },
    },
  };
}
