import { checkVertexCall, type VertexCallChecks, type VertexModelCall } from '../vertex-call-checks.js';
import type { ReceivedRequest } from './received-request.js';
import type { Reply } from './reply.js';

/**
 * A fake Vertex AI on the scripted upstream: a call is checked as Vertex checks it (a live bearer
 * token from the fake token endpoint, the project and location's model path, the publisher's body)
 * and refused in Google's shape, and only then given the scripted answer.
 */
export function vertexReply(checks: VertexCallChecks, answer: (call: VertexModelCall) => Reply): (request: ReceivedRequest) => Reply {
  return (request) => {
    const verdict = checkVertexCall(request, checks);
    return 'refusal' in verdict ? verdict.refusal : answer(verdict.call);
  };
}
