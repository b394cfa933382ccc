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
});
