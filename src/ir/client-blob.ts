import type { BlobProvider, ProviderBlob } from './content.js';

/**
 * Clients echo reasoning blobs back verbatim (Claude Code its thinking signatures, Codex its
 * `encrypted_content`), but a client format has one slot and no provider field. A blob from the
 * format's own provider goes out as is; another provider's is tagged with its name, so on the next
 * turn it is recognised and goes back only to the provider that made it.
 */
const tagPrefix = 'switchyard.v1.';

/**
 * Whether a client body may hold another provider's blob. Such a body cannot be passed through
 * unchanged (the upstream would reject a signature it did not make), so it is translated, which
 * drops the foreign blobs. A plain substring test: cheap enough for every passed-through body.
 */
export function mayHoldForeignBlob(rawBody: string): boolean {
  return rawBody.includes(tagPrefix);
}
const providers: readonly BlobProvider[] = ['openai', 'anthropic', 'gemini', 'sim'];

export interface ClientBlobValue {
  readonly blob: ProviderBlob;
  /** The tagged blob was a redacted payload rather than a signature. */
  readonly redacted: boolean;
}

/** The value to put in the client format's slot. */
export function clientBlobValue(blob: ProviderBlob, nativeProvider: BlobProvider, redacted = false): string {
  if (blob.provider === nativeProvider) return blob.value;
  return `${tagPrefix}${blob.provider}.${redacted ? 'redacted' : 'signed'}.${blob.value}`;
}

/** The blob a client echoed back: its native provider's unless it carries our tag. */
export function blobFromClientValue(value: string, nativeProvider: BlobProvider): ClientBlobValue {
  if (value.startsWith(tagPrefix)) {
    const [provider, flavour, ...rest] = value.slice(tagPrefix.length).split('.');
    const known = providers.find((candidate) => candidate === provider);
    if (known !== undefined && (flavour === 'redacted' || flavour === 'signed')) {
      return { blob: { provider: known, value: rest.join('.') }, redacted: flavour === 'redacted' };
    }
  }
  return { blob: { provider: nativeProvider, value }, redacted: false };
}
