import { toFile } from 'openai';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { openAiSimulatorClient, parseSse, useSimulator } from '../sim.test-support.js';

const sim = useSimulator();

async function solidPng(width: number, height: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
}

async function post(form: FormData): Promise<Response> {
  return fetch(`${sim.url}/v1/images/edits`, { method: 'POST', body: form });
}

function formWith(fields: Record<string, string>, files: Array<[string, Buffer]>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, data] of files) form.append(name, new Blob([new Uint8Array(data)], { type: 'image/png' }), `${name}.png`);
  return form;
}

describe('simulator: OpenAI image edits', () => {
  it('edits two input images sent by the openai SDK as image[]', async () => {
    const client = openAiSimulatorClient(sim);
    const red = await toFile(await solidPng(400, 300, '#ff0000'), 'red.png', { type: 'image/png' });
    const blue = await toFile(await solidPng(400, 300, '#0000ff'), 'blue.png', { type: 'image/png' });
    const result = await client.images.edit({ model: 'gpt-image-1', image: [red, blue], prompt: 'merge them', quality: 'low' });
    // Landscape inputs at size auto give the landscape size; each input fits one 512-pixel tile: 255 tokens.
    expect(result).toMatchObject({ size: '1536x1024', quality: 'low', output_format: 'png', background: 'opaque' });
    expect(result.usage).toMatchObject({ input_tokens_details: { image_tokens: 2 * 255, text_tokens: 3 }, output_tokens: 400 });
    const picture = Buffer.from(result.data?.[0]?.b64_json ?? '', 'base64');
    expect(await sharp(picture).metadata()).toMatchObject({ format: 'png', width: 1536, height: 1024 });
  });

  it('draws from the input: another input image gives other pixels, the same one the same bytes', async () => {
    const answer = async (colour: string) => {
      const response = await post(formWith({ prompt: 'tint it', size: '1024x1024' }, [['image', await solidPng(256, 256, colour)]]));
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: Array<{ b64_json: string }> };
      return body.data[0]?.b64_json ?? '';
    };
    const green = await answer('#00ff00');
    expect(await answer('#00ff00')).toBe(green);
    expect(await answer('#ff00ff')).not.toBe(green);
  });

  it('keeps the input where the mask is opaque', async () => {
    const mask = await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } } }).png().toBuffer();
    const form = formWith({ prompt: 'masked', size: '1024x1024', output_format: 'png' }, [
      ['image', await solidPng(256, 256, '#ff0000')],
      ['mask', mask],
    ]);
    const body = (await (await post(form)).json()) as { data: Array<{ b64_json: string }> };
    const { data } = await sharp(Buffer.from(body.data[0]?.b64_json ?? '', 'base64')).raw().toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2]]).toEqual([255, 0, 0]);
  });

  it('streams image_edit events', async () => {
    const form = formWith({ prompt: 'stream it', stream: 'true', partial_images: '1', output_format: 'jpeg' }, [
      ['image', await solidPng(200, 400, '#123456')],
    ]);
    const response = await post(form);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await response.text());
    expect(events.map((event) => event.event)).toEqual(['image_edit.partial_image', 'image_edit.completed']);
    const completed = JSON.parse(events[1]?.data ?? '{}') as { b64_json: string; size: string };
    expect(completed.size).toBe('1024x1536');
    expect(await sharp(Buffer.from(completed.b64_json, 'base64')).metadata()).toMatchObject({ format: 'jpeg', width: 1024, height: 1536 });
  });

  it('answers a form without image, a file that is not a picture, and a JSON body with 400s', async () => {
    const missing = await post(formWith({ prompt: 'nothing' }, []));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { param: 'image', code: 'missing_required_parameter' } });
    const broken = await post(formWith({ prompt: 'broken' }, [['image', Buffer.from('not a picture')]]));
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { param: 'image', code: 'invalid_image_file' } });
    const refused = await post(formWith({ prompt: 'x', response_format: 'url' }, [['image', await solidPng(64, 64, '#fff')]]));
    expect(await refused.json()).toMatchObject({ error: { param: 'response_format', code: 'unknown_parameter' } });
    const json = await fetch(`${sim.url}/v1/images/edits`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(400);
  });
});
