import { describe, expect, it } from 'vitest';
import type { VideoGenerationRequest } from '../ir/video-generation.js';
import { checkInputMap, parseTemplate, renderInputMap } from './video-input-map.js';

const request: VideoGenerationRequest = { prompt: 'a fox', mode: 'text-to-video', seconds: 5, size: '1280x720', resolution: '720p', aspectRatio: '16:9' };
const textToVideo = { mode: 'text-to-video' as const, resolution: '720p', aspectRatio: '16:9', size: '1280x720', seconds: [5] };

describe('a route\'s input map', () => {
  it('keeps a lone placeholder\'s type, converts on request, and writes text around placeholders as a string', () => {
    const map = { prompt: '{prompt}', a: '{seconds}', b: '{seconds:string}', c: '{seconds}s', d: '{resolution:upper}', e: '{width}', f: 'literal', g: 7, h: true, i: null };
    expect(renderInputMap(map, request)).toEqual({ prompt: 'a fox', a: 5, b: '5', c: '5s', d: '720P', e: 1280, f: 'literal', g: 7, h: true, i: null });
  });

  it('fills nested objects and arrays, and writes {{ and }} as braces', () => {
    expect(renderInputMap({ size: { width: '{width}', height: '{height}' }, tags: ['{aspect_ratio}', 'x'], note: '{{not a placeholder}}' }, request)).toEqual({
      size: { width: 1280, height: 720 },
      tags: ['16:9', 'x'],
      note: '{not a placeholder}',
    });
  });

  it('leaves out a field whose placeholder has no value: no first frame in a text-to-video request', () => {
    expect(renderInputMap({ prompt: '{prompt}', image_url: '{input_reference}' }, request)).toEqual({ prompt: 'a fox' });
  });

  it('writes an uploaded first frame as a data: URL and a linked one as its link', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(renderInputMap({ image_url: '{input_reference}' }, { ...request, mode: 'image-to-video', inputReference: { bytes, mediaType: 'image/png', filename: 'f.png' } })).toEqual({ image_url: 'data:image/png;base64,AQID' });
    expect(renderInputMap({ image_url: '{input_reference}' }, { ...request, mode: 'image-to-video', inputReference: { url: 'https://example.com/f.png' } })).toEqual({ image_url: 'https://example.com/f.png' });
  });

  it('says why a template cannot be read', () => {
    expect(parseTemplate('{nope}')).toMatch(/unknown placeholder \{nope\}/);
    expect(parseTemplate('{seconds:int}')).toMatch(/unknown conversion ':int'/);
    expect(parseTemplate('a { b')).toMatch(/lone '\{'/);
  });

  it('finds what a map cannot express of the variants sold', () => {
    expect(checkInputMap({ prompt: '{prompt}', duration: 'x{seconds:number}' }, [textToVideo])).toEqual([{ field: 'input.duration', message: expect.stringContaining('must be the whole template') as string }]);
    expect(checkInputMap({ prompt: '{prompt}' }, [textToVideo, { ...textToVideo, aspectRatio: '9:16', size: '720x1280' }])).toEqual([{ field: 'input', message: expect.stringContaining('aspect ratios') as string }]);
    expect(checkInputMap({ prompt: '{prompt}', size: '{size}' }, [textToVideo, { ...textToVideo, aspectRatio: '9:16', size: '720x1280' }])).toEqual([]);
  });
});
