import { describe, expect, it } from 'vitest';
import { blobFromClientValue, clientBlobValue } from './client-blob.js';

describe('reasoning blobs handed to clients', () => {
  it('leaves the format provider\'s own blob untouched', () => {
    expect(clientBlobValue({ provider: 'anthropic', value: 'EqsFCqgF+sig' }, 'anthropic')).toBe('EqsFCqgF+sig');
    expect(blobFromClientValue('EqsFCqgF+sig', 'anthropic')).toEqual({ blob: { provider: 'anthropic', value: 'EqsFCqgF+sig' }, redacted: false });
  });

  it('tags another provider\'s blob so it finds its way home, dots in the value included', () => {
    const value = clientBlobValue({ provider: 'gemini', value: 'a.b.c==' }, 'anthropic');
    expect(value).toBe('switchyard.v1.gemini.signed.a.b.c==');
    expect(blobFromClientValue(value, 'anthropic')).toEqual({ blob: { provider: 'gemini', value: 'a.b.c==' }, redacted: false });
  });

  it('remembers a redacted payload', () => {
    const value = clientBlobValue({ provider: 'anthropic', value: 'opaque' }, 'openai', true);
    expect(blobFromClientValue(value, 'openai')).toEqual({ blob: { provider: 'anthropic', value: 'opaque' }, redacted: true });
  });

  it('treats an unknown tag as the native provider\'s value', () => {
    expect(blobFromClientValue('switchyard.v1.nobody.signed.x', 'openai').blob).toEqual({ provider: 'openai', value: 'switchyard.v1.nobody.signed.x' });
  });

  it('carries an OpenAI reasoning item id inside the tag, for formats with no slot for it', () => {
    const value = clientBlobValue({ provider: 'openai', value: 'gAAAA.enc==' }, 'anthropic', false, 'rs_0a1b2c');
    expect(value).toBe('switchyard.v1.openai.item-rs_0a1b2c.gAAAA.enc==');
    expect(blobFromClientValue(value, 'anthropic')).toEqual({ blob: { provider: 'openai', value: 'gAAAA.enc==' }, redacted: false, itemId: 'rs_0a1b2c' });
  });

  it('keeps the item id and the redacted mark together', () => {
    const value = clientBlobValue({ provider: 'openai', value: 'opaque' }, 'anthropic', true, 'rs_with-hyphen');
    expect(value).toBe('switchyard.v1.openai.redacted-item-rs_with-hyphen.opaque');
    expect(blobFromClientValue(value, 'anthropic')).toEqual({ blob: { provider: 'openai', value: 'opaque' }, redacted: true, itemId: 'rs_with-hyphen' });
  });

  it('leaves out an item id holding a dot (the tag separator) rather than corrupt the value', () => {
    const value = clientBlobValue({ provider: 'openai', value: 'enc' }, 'anthropic', false, 'rs_a.b');
    expect(value).toBe('switchyard.v1.openai.signed.enc');
    expect(blobFromClientValue(value, 'anthropic')).toEqual({ blob: { provider: 'openai', value: 'enc' }, redacted: false });
  });

  it('puts no item id on the format provider\'s own blob (the format has its own slot for it)', () => {
    expect(clientBlobValue({ provider: 'openai', value: 'enc' }, 'openai', false, 'rs_1')).toBe('enc');
  });

  it('still reads tags written before item ids were carried', () => {
    expect(blobFromClientValue('switchyard.v1.openai.signed.enc', 'anthropic')).toEqual({ blob: { provider: 'openai', value: 'enc' }, redacted: false });
    expect(blobFromClientValue('switchyard.v1.anthropic.redacted.x', 'openai')).toEqual({ blob: { provider: 'anthropic', value: 'x' }, redacted: true });
  });

  it('treats a tag with an empty item id as the native provider\'s value', () => {
    expect(blobFromClientValue('switchyard.v1.openai.item-.enc', 'anthropic').blob).toEqual({ provider: 'anthropic', value: 'switchyard.v1.openai.item-.enc' });
  });

  it('finds a Bedrock signature its way home from another format\'s slot', () => {
    const value = clientBlobValue({ provider: 'bedrock', value: 'Ep0CCkgI+sig=' }, 'anthropic');
    expect(value).toBe('switchyard.v1.bedrock.signed.Ep0CCkgI+sig=');
    expect(blobFromClientValue(value, 'anthropic')).toEqual({ blob: { provider: 'bedrock', value: 'Ep0CCkgI+sig=' }, redacted: false });
  });
});
