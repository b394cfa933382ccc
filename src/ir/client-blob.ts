import type { BlobProvider, ProviderBlob } from './content.js';

/**
 * Clients echo reasoning blobs back verbatim (Claude Code its thinking signatures, Codex its
 * `encrypted_content`), but a client format has one slot and no provider field. A blob from the
 * format's own provider goes out as is; another provider's is tagged with its name, so on the next
 * turn it is recognised and goes back only to the provider that made it.
 *
 * Tag: `switchyard.v1.<provider>.<flavour>.<value>`, the flavour being `signed` or `redacted`, or
 * `item-<id>` / `redacted-item-<id>` when the blob belongs to a named provider item: OpenAI only
 * takes encrypted reasoning back inside its `rs_…` item, and a Messages thinking block has no
 * slot for that id. Ids never hold a dot (the separator); one that does is left out of the tag.
 */
const tagPrefix = 'switchyard.v1.';
const itemFlavour = 'item-';
const redactedItemFlavour = 'redacted-item-';

/**
 * Whether a client body may hold another provider's blob. Such a body cannot be passed through
 * unchanged (the upstream would reject a signature it did not make), so it is translated, which
 * drops the foreign blobs. A plain substring test: cheap enough for every passed-through body.
 */
export function mayHoldForeignBlob(rawBody: string): boolean {
  return rawBody.includes(tagPrefix);
}
const providers: readonly BlobProvider[] = ['openai', 'anthropic', 'gemini', 'bedrock', 'sim'];

export interface ClientBlobValue {
  readonly blob: ProviderBlob;
  /** The tagged blob was a redacted payload rather than a signature. */
  readonly redacted: boolean;
  /** The provider's item id the blob belongs to, when the tag carried one. */
  readonly itemId?: string;
}

function isTaggableItemId(itemId: string | undefined): itemId is string {
  return itemId !== undefined && itemId !== '' && !itemId.includes('.');
}

/**
 * The value to put in the client format's slot. `itemId` (the provider's reasoning item id) goes
 * into the tag for formats that have no slot of their own for it; a native blob never carries it.
 */
export function clientBlobValue(blob: ProviderBlob, nativeProvider: BlobProvider, redacted = false, itemId?: string): string {
  if (blob.provider === nativeProvider) return blob.value;
  const flavour = isTaggableItemId(itemId)
    ? `${redacted ? redactedItemFlavour : itemFlavour}${itemId}`
    : redacted ? 'redacted' : 'signed';
  return `${tagPrefix}${blob.provider}.${flavour}.${blob.value}`;
}

function readFlavour(flavour: string | undefined): { redacted: boolean; itemId?: string } | undefined {
  if (flavour === 'signed' || flavour === 'redacted') return { redacted: flavour === 'redacted' };
  if (flavour === undefined) return undefined;
  for (const [prefix, redacted] of [[redactedItemFlavour, true], [itemFlavour, false]] as const) {
    if (flavour.startsWith(prefix) && flavour.length > prefix.length) return { redacted, itemId: flavour.slice(prefix.length) };
  }
  return undefined;
}

/** The blob a client echoed back: its native provider's unless it carries our tag. */
export function blobFromClientValue(value: string, nativeProvider: BlobProvider): ClientBlobValue {
  if (value.startsWith(tagPrefix)) {
    const [provider, flavour, ...rest] = value.slice(tagPrefix.length).split('.');
    const known = providers.find((candidate) => candidate === provider);
    const read = readFlavour(flavour);
    if (known !== undefined && read !== undefined) {
      return { blob: { provider: known, value: rest.join('.') }, ...read };
    }
  }
  return { blob: { provider: nativeProvider, value }, redacted: false };
}
