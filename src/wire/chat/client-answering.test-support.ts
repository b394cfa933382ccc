/** Test support: an `openai` SDK client that never leaves the process (never imported by runtime code). */
import OpenAI from 'openai';

/** An SDK client whose every request is answered with `body`, so the SDK's own parsing judges it. */
export function clientAnswering(body: string, contentType: string): OpenAI {
  return new OpenAI({
    apiKey: 'sk-test',
    baseURL: 'http://gateway.test/v1',
    maxRetries: 0,
    fetch: async () => new Response(body, { status: 200, headers: { 'content-type': contentType } }),
  });
}
