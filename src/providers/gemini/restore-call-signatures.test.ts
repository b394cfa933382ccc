import { describe, expect, it } from 'vitest';
import type { ContentPart, ProviderBlob } from '../../ir/index.js';
import { restoreCallSignatures } from './restore-call-signatures.js';

const carrier = (value: string): ContentPart => ({ type: 'reasoning', text: '', blob: { provider: 'gemini', value } });
const call = (id: string, blob?: ProviderBlob): ContentPart => ({
  type: 'tool-call',
  id,
  name: 'weather',
  arguments: '{}',
  ...(blob === undefined ? {} : { blob }),
});

describe('restoreCallSignatures', () => {
  it('moves a signature carried right before an unsigned call onto that call, dropping the carrier', () => {
    expect(restoreCallSignatures([carrier('sig-1'), call('a'), call('b')])).toEqual([
      { ...call('a'), blob: { provider: 'gemini', value: 'sig-1' } },
      call('b'),
    ]);
  });

  it('restores every carried call signature of a turn', () => {
    const parts = [{ type: 'text', text: 'Checking.' } as const, carrier('sig-1'), call('a'), carrier('sig-2'), call('b')];
    expect(restoreCallSignatures(parts).map((part) => part.type === 'tool-call' && part.blob?.value)).toEqual([false, 'sig-1', 'sig-2']);
  });

  it('replaces another provider\'s blob on the call, which Gemini could not read anyway', () => {
    expect(restoreCallSignatures([carrier('sig-1'), call('a', { provider: 'openai', value: 'x' })])).toEqual([
      { ...call('a'), blob: { provider: 'gemini', value: 'sig-1' } },
    ]);
  });

  it('leaves an empty signed part alone when it is not directly followed by an unsigned call', () => {
    const text: ContentPart = { type: 'text', text: 'Hi' };
    const signedCall = call('a', { provider: 'gemini', value: 'own' });
    for (const parts of [[carrier('sig-1')], [carrier('sig-1'), text, call('a')], [carrier('sig-1'), signedCall], [call('a'), carrier('sig-1')]]) {
      expect(restoreCallSignatures(parts)).toEqual(parts);
    }
  });

  it('does not treat reasoning with text, or another provider\'s empty reasoning, as a carrier', () => {
    const visible: ContentPart = { type: 'reasoning', text: 'thinking', blob: { provider: 'gemini', value: 'sig' } };
    const foreign: ContentPart = { type: 'reasoning', text: '', blob: { provider: 'anthropic', value: 'sig' } };
    expect(restoreCallSignatures([visible, call('a')])).toEqual([visible, call('a')]);
    expect(restoreCallSignatures([foreign, call('a')])).toEqual([foreign, call('a')]);
  });
});
