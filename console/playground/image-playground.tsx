import { useState } from 'preact/hooks';
import { call, messageOf } from '../api.js';
import { showUsd } from '../money.js';
import { ErrorNotice } from '../parts/notice.js';
import { PromptField } from '../parts/prompt-field.js';

/** An image generation; the images come back as the gateway's signed URLs, so `<img>` needs no key. */
export function ImagePlayground(props: { model: string }) {
  const [prompt, setPrompt] = useState('A red bicycle against a white wall');
  const [size, setSize] = useState('1024x1024');
  const [quality, setQuality] = useState('low');
  const [images, setImages] = useState<string[]>([]);
  const [cost, setCost] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const send = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setImages([]);
    setCost(undefined);
    try {
      const body = { model: props.model, prompt, size, quality, n: 1, response_format: 'url' };
      const response = await call('/v1/images/generations', { method: 'POST', body: JSON.stringify(body) });
      const answer = (await response.json()) as { data: { url?: string; b64_json?: string }[] };
      setImages(answer.data.map((image) => image.url ?? `data:image/png;base64,${image.b64_json ?? ''}`));
      setCost(response.headers.get('x-request-cost-usd') ?? undefined);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="panel form" onSubmit={send} aria-label="Image generation">
      <PromptField label="Prompt" rows={3} value={prompt} onChange={setPrompt} />
      <div class="grid">
        <label class="field">
          <span>Size</span>
          <select value={size} onChange={(event) => setSize(event.currentTarget.value)}>
            {['1024x1024', '1536x1024', '1024x1536'].map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>Quality</span>
          <select value={quality} onChange={(event) => setQuality(event.currentTarget.value)}>
            {['low', 'medium', 'high'].map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        </label>
      </div>
      <div class="actions">
        <button type="submit" disabled={busy}>
          Generate
        </button>
      </div>
      <ErrorNotice error={error} />
      <div class="media">
        {images.map((source) => (
          <img key={source} src={source} alt={prompt} />
        ))}
      </div>
      {cost === undefined ? null : <p data-testid="call-cost">Cost: {showUsd(cost)}</p>}
    </form>
  );
}
