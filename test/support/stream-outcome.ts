/** The client formats a stream can be asked in, with the path, body and end markers of each. */
export type StreamFormat = 'chat' | 'responses' | 'messages';

const ends: Record<StreamFormat, { complete: string; failed: RegExp }> = {
  chat: { complete: 'data: [DONE]', failed: /^data: \{"error":/m },
  responses: { complete: 'event: response.completed', failed: /^event: response\.failed$/m },
  messages: { complete: 'event: message_stop', failed: /^event: error$/m },
};

/** How a stream ended, as its client sees it: in full, with its format's error event, or neither (broken). */
export interface StreamOutcome {
  readonly requestId: string;
  readonly status: number;
  readonly ending: 'complete' | 'error_event' | 'broken';
  readonly text: string;
}

/** Sends one streamed call in `format` to the gateway at `url` and reads it to its end. */
export async function streamCall(url: string, format: StreamFormat, model: string, prompt: string): Promise<StreamOutcome> {
  const [path, body] =
    format === 'chat'
      ? ['/v1/chat/completions', { model, stream: true, messages: [{ role: 'user', content: prompt }] }]
      : format === 'responses'
        ? ['/v1/responses', { model, stream: true, store: false, input: prompt }]
        : ['/v1/messages', { model, stream: true, max_tokens: 1000, messages: [{ role: 'user', content: prompt }] }];
  let response: Response;
  try {
    response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body: JSON.stringify(body) });
  } catch (error) {
    return { requestId: '', status: 0, ending: 'broken', text: String((error as Error).cause ?? error) };
  }
  let text = '';
  try {
    text = await response.text();
  } catch {
    return { requestId: response.headers.get('x-request-id') ?? '', status: response.status, ending: 'broken', text };
  }
  const end = ends[format];
  const ending = text.includes(end.complete) ? 'complete' : end.failed.test(text) ? 'error_event' : 'broken';
  return { requestId: response.headers.get('x-request-id') ?? '', status: response.status, ending, text };
}
