import { Readable } from 'node:stream';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ContentReader } from '../../media/content-store/content-store.js';
import { contentSafetyHeaders } from '../../http/content-safety-headers.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';

/**
 * `GET /v1/images/content/{id}` (and HEAD): a published image, by the signed URL the image
 * endpoint handed out. No API key: the signature is the permission, as with a vendor's signed URL.
 *
 * A forged or expired URL is refused with 403, as signed storage URLs are, and that answer is
 * given before the store is asked, so it says nothing about what is stored. Only a correctly
 * signed URL whose content is gone gets 404.
 */
export async function handleImageContent(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const id = context.req.param('id') ?? '';
    const opened = await services.imageContent.open(id, context.req.query('expires'), context.req.query('signature'));
    if (opened.outcome === 'refused') {
      const message = opened.reason === 'expired' ? 'This image URL has expired.' : 'This image URL is not valid: its signature does not match.';
      throw new GatewayError('permission_denied', message);
    }
    if (opened.outcome === 'missing') throw new GatewayError('not_found', 'The image at this URL is no longer available.');
    const { content, expiresAt } = opened;
    // Content under an id never changes (every publish gets a new id), so the id is a strong tag.
    const etag = `"${id}"`;
    const headers: Record<string, string> = {
      ...contentSafetyHeaders,
      etag,
      'cache-control': `private, max-age=${services.imageContent.secondsLeft(expiresAt)}`,
      'x-request-id': requestId,
    };
    if (matchesTag(context.req.header('if-none-match'), etag)) {
      await discard(content);
      return new Response(null, { status: 304, headers });
    }
    headers['content-type'] = content.contentType;
    headers['content-length'] = String(content.size);
    if (context.req.method === 'HEAD') {
      await discard(content);
      return new Response(null, { status: 200, headers });
    }
    return new Response(Readable.toWeb(Readable.from(content.body)) as ReadableStream<Uint8Array>, { status: 200, headers });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

function matchesTag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`;
  });
}

/** Releases content opened but not sent (a HEAD or a 304), so its file is closed now rather than at collection. */
async function discard(content: ContentReader): Promise<void> {
  await content.body[Symbol.asyncIterator]().return?.();
}
