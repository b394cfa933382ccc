import { isRecord, readString } from '../../json/json-value.js';

export interface ChatErrorFields {
  readonly message: string;
  readonly type?: string;
  readonly code?: string;
  readonly param?: string;
}

/**
 * Reads an OpenAI-style error (`{error:{message,type,param,code}}`), also accepting the variants
 * compat servers send: `{error:"text"}`, `{message}` and FastAPI's `{detail:"text"}`.
 */
export function parseChatErrorBody(body: unknown): ChatErrorFields | undefined {
  if (!isRecord(body)) return undefined;
  const error = body['error'];
  if (typeof error === 'string' && error !== '') return { message: error };
  if (isRecord(error)) {
    const message = readString(error, 'message');
    if (message === undefined || message === '') return undefined;
    const code = error['code'];
    return withDefined({
      message,
      type: readString(error, 'type'),
      // Some upstreams send numeric codes.
      code: typeof code === 'number' ? String(code) : readString(error, 'code'),
      param: readString(error, 'param'),
    });
  }
  const message = readString(body, 'message') ?? readString(body, 'detail');
  return message === undefined || message === '' ? undefined : { message };
}

function withDefined(fields: { message: string; type: string | undefined; code: string | undefined; param: string | undefined }): ChatErrorFields {
  return {
    message: fields.message,
    ...(fields.type === undefined ? {} : { type: fields.type }),
    ...(fields.code === undefined ? {} : { code: fields.code }),
    ...(fields.param === undefined ? {} : { param: fields.param }),
  };
}
