import { describe, expect, it } from 'vitest';
import { createImagesStreamDecoder } from './images-stream-decoder.js';
import { readFixture } from '../../../../test/support/fixtures.js';

/** The `event:` name and `data:` text of each event of a raw SSE text. */
function sseEvents(text: string): { name: string | undefined; data: string }[] {
  return text
    .split(/\n\n+/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const name = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
      const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice('data: '.length)).join('\n');
      return { name, data };
    });
}

describe('OpenAI images: the partial-image stream', () => {
  it('reads the documented stream: one partial image, then the completed image with its usage', () => {
    const decoder = createImagesStreamDecoder();
    const events = sseEvents(readFixture('openai/images/spec-example.gpt-image.stream.sse.txt')).flatMap((event) => decoder.push(event.name, event.data));
    expect([...events, ...decoder.end()]).toEqual([
      { type: 'partial-image', partialIndex: 0, base64: '...' },
      {
        type: 'image-completed',
        result: { images: [{ base64: '...' }], usage: { inputUncached: 50, cacheRead: 0, cacheWrite: 0, output: 50, reasoning: 0 } },
      },
    ]);
  });

  it('reads edit events and the reported size, quality and format', () => {
    const decoder = createImagesStreamDecoder();
    const data = JSON.stringify({ type: 'image_edit.completed', b64_json: 'AAAA', size: '1024x1536', quality: 'medium', output_format: 'webp', background: 'opaque' });
    expect(decoder.push('image_edit.completed', data)).toEqual([
      { type: 'image-completed', result: { images: [{ base64: 'AAAA' }], size: '1024x1536', quality: 'medium', outputFormat: 'webp', background: 'opaque' } },
    ]);
  });

  it('keeps a safety refusal inside the stream as a 400 with its code', () => {
    const decoder = createImagesStreamDecoder();
    const data = JSON.stringify({ type: 'error', error: { type: 'image_generation_user_error', code: 'moderation_blocked', message: 'Your request was rejected by the safety system.' } });
    const [event] = decoder.push('error', data);
    expect(event?.type === 'error' && { status: event.error.status, upstreamType: event.error.upstreamType, message: event.error.message }).toEqual({
      status: 400,
      upstreamType: 'moderation_blocked',
      message: 'Your request was rejected by the safety system.',
    });
    expect(decoder.end()).toEqual([]);
  });

  it('ends with an error when the stream closes before any image completed', () => {
    const decoder = createImagesStreamDecoder();
    decoder.push('image_generation.partial_image', JSON.stringify({ type: 'image_generation.partial_image', b64_json: 'AA', partial_image_index: 0 }));
    const [event] = decoder.end();
    expect(event?.type === 'error' && event.error.code).toBe('upstream_invalid_response');
  });
});
