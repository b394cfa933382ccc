import { errorBody } from '../error-bodies.js';

/** Google's 400 for a request field out of bounds: `INVALID_ARGUMENT` with the reason. */
export function invalidArgument(message: string): { status: number; body: unknown } {
  return { status: 400, body: errorBody('gemini', 400, message, '') };
}
