import { useState } from 'preact/hooks';
import { getJson } from '../api.js';
import { ErrorNotice } from '../parts/notice.js';
import { useLoad } from '../parts/use-load.js';
import { ChatPlayground } from '../playground/chat-playground.js';
import { ImagePlayground } from '../playground/image-playground.js';
import { VideoPlayground } from '../playground/video-playground.js';

interface ModelEntry {
  id: string;
  output_modality: 'text' | 'image' | 'video';
}

/** Calls any model with the signed-in admin key (admin keys may call every `/v1` endpoint), showing each call's cost. */
export function PlaygroundPage() {
  const models = useLoad(() => getJson<{ data: ModelEntry[] }>('/v1/models?output_modalities=text,image,video'), []);
  const [chosen, setChosen] = useState<string>();
  const list = models.data?.data ?? [];
  const model = list.find((entry) => entry.id === chosen) ?? list[0];
  return (
    <section>
      <ErrorNotice error={models.error} />
      <label class="field">
        <span>Model</span>
        <select name="model" value={model?.id} onChange={(event) => setChosen(event.currentTarget.value)}>
          {(['text', 'image', 'video'] as const).map((modality) => (
            <optgroup key={modality} label={modality}>
              {list
                .filter((entry) => entry.output_modality === modality)
                .map((entry) => (
                  <option key={entry.id} value={entry.id}>
                    {entry.id}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
      </label>
      {model === undefined ? null : model.output_modality === 'text' ? (
        <ChatPlayground key={model.id} model={model.id} />
      ) : model.output_modality === 'image' ? (
        <ImagePlayground key={model.id} model={model.id} />
      ) : (
        <VideoPlayground key={model.id} model={model.id} />
      )}
    </section>
  );
}
