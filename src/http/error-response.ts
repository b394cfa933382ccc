import type { ClientFormat } from '../formats/client-format.js';
import { errorAnswer } from './gateway-answer.js';

/** An error answer as a Web Response, for the endpoints served through the HTTP framework. */
export function errorResponse(thrown: unknown, requestId: string, format?: ClientFormat): Response {
  const answer = errorAnswer(thrown, requestId, format);
  return new Response(answer.body as string, { status: answer.status, headers: answer.headers });
}
