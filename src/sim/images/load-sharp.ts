import type Sharp from 'sharp';

let loading: Promise<typeof Sharp> | undefined;

/**
 * The image library, loaded on first use: it maps about 15 MB of native code, which a gateway
 * that never touches an image should not carry.
 */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}
