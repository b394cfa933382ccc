import { asArray, asRecord, type JsonRecord } from '../../json/json-value.js';

/** True when `generationConfig.responseModalities` asks for images (Gemini accepts any case). */
export function asksForImageOutput(body: JsonRecord): boolean {
  const modalities = asArray(asRecord(body.generationConfig)?.responseModalities);
  return modalities.some((modality) => typeof modality === 'string' && modality.toUpperCase() === 'IMAGE');
}
