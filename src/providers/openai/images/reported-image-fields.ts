import type { ImageGenerationResult, ImageOutputFormat } from '../../../ir/index.js';
import { readString } from '../../../json/json-value.js';
import { usageFromImagesUsage } from './images-usage.js';

/**
 * What an Images API answer (or a stream's `completed` event) reports having produced: `size`,
 * `quality`, `output_format`, `background` and `usage`, each only when present.
 */
export function reportedImageFields(record: Readonly<Record<string, unknown>>): Omit<ImageGenerationResult, 'images'> {
  const size = readString(record, 'size');
  const quality = readString(record, 'quality');
  const outputFormat = readString(record, 'output_format');
  const background = readString(record, 'background');
  const usage = usageFromImagesUsage(record['usage']);
  return {
    ...(size ? { size } : {}),
    ...(quality ? { quality } : {}),
    ...(isOutputFormat(outputFormat) ? { outputFormat } : {}),
    ...(background ? { background } : {}),
    ...(usage === undefined ? {} : { usage }),
  };
}

function isOutputFormat(value: string | undefined): value is ImageOutputFormat {
  return value === 'png' || value === 'jpeg' || value === 'webp';
}
