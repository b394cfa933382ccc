import type * as MediaEndpoints from './media-endpoints.js';

let loading: Promise<typeof MediaEndpoints> | undefined;

/**
 * The image and video endpoints, loaded on the first request for one: the MP4 muxer, the encoded
 * video seconds and the multipart reader are a good part of the simulator's start, and a gateway
 * that only relays text to it never needs them.
 */
export function loadMediaEndpoints(): Promise<typeof MediaEndpoints> {
  loading ??= import('./media-endpoints.js');
  return loading;
}
