import type { BlobProvider, ProviderBlob } from '../../ir/index.js';

/**
 * Reasoning items carry `encrypted_content`, an opaque string clients (Codex) echo back verbatim
 * with store:false. OpenAI's own value is sent as is. Another provider's blob (an Anthropic
 * thinking signature, a redacted-thinking payload) is wrapped with a tag naming its provider, so a
 * Responses client talking to that provider through the gateway hands it back intact on the next
 * turn; without it the provider would reject the continued tool loop.
 */
const tagPrefix = 'switchyard.v1.';
const foreignProviders: readonly BlobProvider[] = ['anthropic', 'gemini', 'sim'];

function isForeignProvider(value: string | undefined): value is BlobProvider {
  return foreignProviders.some((provider) => provider === value);
}

export interface DecodedReasoningBlob {
  readonly blob: ProviderBlob;
  readonly redacted: boolean;
}

export function encryptedContentFromBlob(blob: ProviderBlob, redacted = false): string {
  if (blob.provider === 'openai') return blob.value;
  return `${tagPrefix}${blob.provider}.${redacted ? 'redacted' : 'signed'}.${blob.value}`;
}

/** The blob an `encrypted_content` value stands for: OpenAI's unless it carries our tag. */
export function blobFromEncryptedContent(value: string): DecodedReasoningBlob {
  if (value.startsWith(tagPrefix)) {
    const [provider, flavour, ...rest] = value.slice(tagPrefix.length).split('.');
    if (isForeignProvider(provider) && (flavour === 'redacted' || flavour === 'signed')) {
      return { blob: { provider, value: rest.join('.') }, redacted: flavour === 'redacted' };
    }
  }
  return { blob: { provider: 'openai', value }, redacted: false };
}
