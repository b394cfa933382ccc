import { sizeFor } from '../../../src/catalog/records/video-model-record.js';

/**
 * What the fake checks of a prediction's `input`, per model, from the models' API pages (as the
 * built-in input maps read them): the fields a model requires and the values it takes. A model
 * the fake does not know needs only a prompt. Answers the video's size and length, or the
 * validation error Replicate answers with (422, `detail` naming the field).
 */
export type InputCheck = { readonly size: string; readonly seconds: number } | { readonly detail: string };

const rules: Readonly<Record<string, (input: Readonly<Record<string, unknown>>) => string | undefined>> = {
  'kwaivgi/kling-v2.1': (input) => {
    if (typeof input.start_image !== 'string') return '- input.start_image: You must use a start image with kling-v2.1';
    if (![5, 10].includes(Number(input.duration ?? 5))) return '- input.duration: must be one of [5, 10]';
    if (!['standard', 'pro'].includes(String(input.mode ?? 'standard'))) return '- input.mode: must be one of [standard, pro]';
    return undefined;
  },
  'google/veo-3-fast': (input) => (Number(input.duration ?? 8) === 8 ? undefined : '- input.duration: must be 8'),
  'bytedance/seedance-1-pro': (input) => {
    const duration = input.duration ?? 5;
    return Number.isInteger(duration) && (duration as number) >= 2 && (duration as number) <= 12 ? undefined : '- input.duration: must be an integer from 2 to 12';
  },
};

export function checkInput(model: string, input: Readonly<Record<string, unknown>>): InputCheck {
  if (typeof input.prompt !== 'string' || input.prompt.trim() === '') return { detail: '- input: prompt is required' };
  const refusal = rules[model]?.(input);
  if (refusal !== undefined) return { detail: refusal };
  const resolution = input.mode === 'pro' ? '1080p' : input.mode === 'standard' ? '720p' : String(input.resolution ?? '720p');
  const aspectRatio = String(input.aspect_ratio ?? '16:9');
  const seconds = typeof input.duration === 'number' ? input.duration : 5;
  return { size: /^\d+p$/.test(resolution) && /^\d+:\d+$/.test(aspectRatio) ? sizeFor(resolution, aspectRatio) : '1280x720', seconds };
}
