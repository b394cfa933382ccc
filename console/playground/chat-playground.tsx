import { useState } from 'preact/hooks';
import { call, messageOf } from '../api.js';
import { showUsd } from '../money.js';
import { ledgerCost } from '../parts/ledger-cost.js';
import { ErrorNotice } from '../parts/notice.js';
import { readEvents } from '../parts/sse.js';
import { PromptField } from '../parts/prompt-field.js';

interface ChatChunk {
  choices?: { delta?: { content?: string | null } }[];
}
interface ChatAnswer {
  choices: { message: { content: string | null } }[];
}

/**
 * A chat completion, streamed or not. A plain answer's cost is its `x-request-cost-usd` header; a
 * stream's comes from its ledger entry, found by the answer's `x-request-id`.
 */
export function ChatPlayground(props: { model: string }) {
  const [prompt, setPrompt] = useState('Say hello in five words.');
  const [stream, setStream] = useState(true);
  const [answer, setAnswer] = useState('');
  const [cost, setCost] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const send = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setAnswer('');
    setCost(undefined);
    try {
      const body = { model: props.model, messages: [{ role: 'user', content: prompt }], stream, ...(stream ? { stream_options: { include_usage: true } } : {}) };
      const response = await call('/v1/chat/completions', { method: 'POST', body: JSON.stringify(body) });
      if (stream) {
        let text = '';
        await readEvents(response, (data) => {
          if (data === '[DONE]') return;
          text += (JSON.parse(data) as ChatChunk).choices?.[0]?.delta?.content ?? '';
          setAnswer(text);
        });
        const requestId = response.headers.get('x-request-id');
        setCost(requestId === null ? undefined : await ledgerCost(requestId));
      } else {
        setAnswer(((await response.json()) as ChatAnswer).choices[0]?.message.content ?? '');
        setCost(response.headers.get('x-request-cost-usd') ?? undefined);
      }
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="panel form" onSubmit={send} aria-label="Chat">
      <PromptField label="Message" rows={4} value={prompt} onChange={setPrompt} />
      <label class="check">
        <input type="checkbox" checked={stream} onChange={(event) => setStream(event.currentTarget.checked)} /> Stream
      </label>
      <div class="actions">
        <button type="submit" disabled={busy}>
          Send
        </button>
      </div>
      <ErrorNotice error={error} />
      {answer === '' ? null : (
        <pre class="answer" data-testid="chat-answer">
          {answer}
        </pre>
      )}
      {cost === undefined ? null : <p data-testid="call-cost">Cost: {showUsd(cost)}</p>}
    </form>
  );
}
