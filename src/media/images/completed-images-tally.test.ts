import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { createImagesStreamDecoder } from '../../providers/openai/images/images-stream-decoder.js';
import { createCompletedImagesTally } from './completed-images-tally.js';

function completed(usage: { input_tokens: number; output_tokens: number }): string {
  return JSON.stringify({ type: 'image_generation.completed', b64_json: 'AAAA', size: '1024x1536', quality: 'low', output_format: 'png', background: 'opaque', usage });
}

describe('the tally of a relayed image stream', () => {
  it('counts completed images, keeps the reported tier and adds their usage up', () => {
    const tally = createCompletedImagesTally(createImagesStreamDecoder());
    tally.observe('image_generation.partial_image', JSON.stringify({ type: 'image_generation.partial_image', b64_json: 'AA', partial_image_index: 0 }));
    tally.observe('image_generation.completed', completed({ input_tokens: 10, output_tokens: 100 }));
    tally.observe('image_generation.completed', completed({ input_tokens: 0, output_tokens: 100 }));
    expect(tally.finish(undefined)).toBeUndefined();
    const result = tally.result();
    expect(result.images).toHaveLength(2);
    expect(result).toMatchObject({ size: '1024x1536', quality: 'low', outputFormat: 'png', usage: { inputUncached: 10, output: 200 } });
  });

  it('ends a stream closed before any image with an error, and one cut midway with the cut', () => {
    expect(createCompletedImagesTally(createImagesStreamDecoder()).finish(undefined)?.code).toBe('upstream_invalid_response');
    const tally = createCompletedImagesTally(createImagesStreamDecoder());
    tally.observe(undefined, completed({ input_tokens: 1, output_tokens: 1 }));
    const cut = new GatewayError('upstream_error', 'connection reset');
    expect(tally.finish(cut)).toBe(cut);
    expect(tally.result().images).toHaveLength(1);
  });

  it('adds nothing when the upstream sent its own error event', () => {
    const tally = createCompletedImagesTally(createImagesStreamDecoder());
    tally.observe('error', JSON.stringify({ type: 'error', error: { type: 'image_generation_user_error', code: 'moderation_blocked', message: 'no' } }));
    expect(tally.finish(undefined)).toBeUndefined();
    expect(tally.result().images).toHaveLength(0);
  });

  it('counts an image whose partial reached a client that then left, but not partials read after it left or cut by the upstream', () => {
    const partial = JSON.stringify({ type: 'image_generation.partial_image', b64_json: 'AA', partial_image_index: 0 });
    const left = createCompletedImagesTally(createImagesStreamDecoder());
    left.observe('image_generation.partial_image', partial);
    expect(left.awaitingCompletion()).toBe(true);
    left.clientLeft();
    expect(left.result().images).toHaveLength(1);

    const readAfterLeaving = createCompletedImagesTally(createImagesStreamDecoder());
    readAfterLeaving.observe('image_generation.completed', completed({ input_tokens: 1, output_tokens: 1 }));
    readAfterLeaving.clientLeft();
    readAfterLeaving.observe('image_generation.partial_image', partial);
    expect(readAfterLeaving.result().images).toHaveLength(1);

    const cutByUpstream = createCompletedImagesTally(createImagesStreamDecoder());
    cutByUpstream.observe('image_generation.partial_image', partial);
    cutByUpstream.finish(new GatewayError('upstream_error', 'connection reset'));
    expect(cutByUpstream.result().images).toHaveLength(0);
  });

  it('keeps an image whose partial reached the client pending while another image of the same stream completes', () => {
    const partial = (index: number): string => JSON.stringify({ type: 'image_generation.partial_image', b64_json: 'AA', partial_image_index: index });
    const tally = createCompletedImagesTally(createImagesStreamDecoder());
    // Two images (n = 2) whose events interleave: the first completes, the second has shown one partial.
    tally.observe('image_generation.partial_image', partial(0));
    tally.observe('image_generation.partial_image', partial(0));
    tally.observe('image_generation.partial_image', partial(1));
    tally.observe('image_generation.completed', completed({ input_tokens: 1, output_tokens: 1 }));
    expect(tally.awaitingCompletion()).toBe(true);
    tally.clientLeft();
    expect(tally.result().images).toHaveLength(2);
  });

  it('bills every image a leaving client saw a partial of, and none that completed since', () => {
    const partial = (index: number): string => JSON.stringify({ type: 'image_generation.partial_image', b64_json: 'AA', partial_image_index: index });
    const tally = createCompletedImagesTally(createImagesStreamDecoder());
    tally.observe('image_generation.partial_image', partial(0));
    tally.observe('image_generation.partial_image', partial(0));
    tally.observe('image_generation.partial_image', partial(0));
    tally.clientLeft();
    expect(tally.result().images).toHaveLength(3);
    tally.observe('image_generation.completed', completed({ input_tokens: 1, output_tokens: 1 }));
    tally.observe('image_generation.completed', completed({ input_tokens: 1, output_tokens: 1 }));
    expect(tally.awaitingCompletion()).toBe(true);
    tally.observe('image_generation.completed', completed({ input_tokens: 1, output_tokens: 1 }));
    expect(tally.awaitingCompletion()).toBe(false);
    expect(tally.result().images).toHaveLength(3);
  });
});
