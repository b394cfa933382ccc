import type { ImageOutputFormat } from '../../../ir/index.js';

/** The output format a Google answer's `mimeType` names (`image/png`, `image/jpeg`, `image/webp`). */
export function outputFormatFromMimeType(mimeType: string | undefined): ImageOutputFormat | undefined {
  switch (mimeType?.toLowerCase()) {
    case 'image/png':
      return 'png';
    case 'image/jpeg':
    case 'image/jpg':
      return 'jpeg';
    case 'image/webp':
      return 'webp';
    default:
      return undefined;
  }
}

/** The `mimeType` to ask for, where the model offers a choice. */
export function mimeTypeForOutputFormat(format: ImageOutputFormat): string {
  return `image/${format}`;
}
