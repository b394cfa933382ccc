import { GatewayError } from '../../errors/gateway-error.js';
import type { ImageSource } from '../../ir/index.js';
import { parseDataUrl } from '../../wire/data-url.js';

/**
 * An OpenAI image URL (chat `image_url.url`, Responses `image_url`) as an IR source: a data URL
 * becomes inline base64, an http(s) URL stays a URL, anything else is refused in OpenAI's wording
 * against `param`, the field's full name.
 */
export function imageUrlSource(url: string, param: string): ImageSource {
  if (url.startsWith('data:')) {
    const parsed = parseDataUrl(url);
    if (parsed === undefined) {
      throw new GatewayError('invalid_field', `Invalid value for '${param}': not a valid data URL.`, { param });
    }
    return { kind: 'base64', mediaType: parsed.mediaType, data: parsed.data };
  }
  if (!/^https?:\/\//i.test(url)) {
    throw new GatewayError('invalid_field', `Invalid value for '${param}': expected an http(s) or data: URL.`, { param });
  }
  return { kind: 'url', url };
}
