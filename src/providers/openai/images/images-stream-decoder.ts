import { GatewayError } from '../../../errors/gateway-error.js';
import type { ImageStreamEvent } from '../../../ir/index.js';
import { isRecord, parseJson, readCount, readRecord, readString } from '../../../json/json-value.js';
import { parseChatErrorBody } from '../../../wire/chat/chat-error-body.js';
import type { ImageStreamDecoder } from '../../provider-adapter.js';
import { reportedImageFields } from './reported-image-fields.js';

/**
 * The Images API stream: `image_generation.partial_image` / `image_edit.partial_image` events,
 * then one `…completed` per image with its size, quality, format, background and usage; an
 * `error` event when it fails midway.
 */
export function createImagesStreamDecoder(): ImageStreamDecoder {
  let completed = 0;
  let failed = false;
  return {
    push(eventName, data) {
      const payload = parseJson(data);
      if (!isRecord(payload)) return [];
      const type = readString(payload, 'type') ?? eventName ?? '';
      if (type.endsWith('.partial_image')) return partialImage(payload);
      if (type.endsWith('.completed')) {
        const event = completedImage(payload);
        if (event.type === 'image-completed') completed += 1;
        return [event];
      }
      if (type === 'error' || readRecord(payload, 'error') !== undefined) {
        failed = true;
        return [{ type: 'error', error: streamError(payload) }];
      }
      return [];
    },
    end() {
      if (completed > 0 || failed) return [];
      return [{ type: 'error', error: new GatewayError('upstream_invalid_response', 'The upstream ended the image stream before an image was completed.') }];
    },
  };
}

function partialImage(payload: Record<string, unknown>): ImageStreamEvent[] {
  const base64 = readString(payload, 'b64_json');
  if (!base64) return [];
  return [{ type: 'partial-image', partialIndex: readCount(payload, 'partial_image_index') ?? 0, base64 }];
}

function completedImage(payload: Record<string, unknown>): ImageStreamEvent {
  const base64 = readString(payload, 'b64_json');
  if (!base64) {
    return { type: 'error', error: new GatewayError('upstream_invalid_response', 'The upstream completed an image without its data.') };
  }
  return { type: 'image-completed', result: { images: [{ base64 }], ...reportedImageFields(payload) } };
}

/** A failure inside the stream has no HTTP status left to keep: a safety refusal stays the client's 400. */
function streamError(payload: Record<string, unknown>): GatewayError {
  const fields = parseChatErrorBody(payload);
  const code = fields?.code ?? fields?.type;
  const message = fields?.message ?? 'The upstream reported an error during the image stream.';
  const options = code === undefined ? {} : { upstreamType: code };
  if (code === 'moderation_blocked' || code === 'content_policy_violation' || fields?.type === 'image_generation_user_error') {
    return new GatewayError('upstream_client_error', message, { ...options, status: 400 });
  }
  return new GatewayError('upstream_error', message, options);
}
