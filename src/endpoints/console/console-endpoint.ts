import { GatewayError } from '../../errors/gateway-error.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import { loadConsoleFiles, type ConsoleFile } from './console-files.js';

export const consolePath = '/console';

/**
 * The console runs only its own bundled script and style, talks only to this origin and cannot be
 * framed: a page that holds an admin key must not run injected code or be clickjacked. Inline
 * `style` attributes stay refused too; the app sets styles through the DOM, which CSP allows.
 */
export const consoleContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const securityHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': consoleContentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

let files: ReadonlyMap<string, ConsoleFile> | undefined;

/**
 * `GET /console` and below: the console's built files; any other path below it is a page of the
 * app (`/console/keys`), answered with `index.html` so a reload or a shared link opens that page.
 * Missing assets are 404, so a stale page asking for an old bundle fails visibly.
 */
export function handleConsole(context: GatewayContext): Response {
  const requestId = context.get('requestId');
  files ??= loadConsoleFiles();
  const relative = context.req.path.slice(consolePath.length).replace(/^\/+/, '');
  const asset = relative === '' ? undefined : files.get(relative);
  if (asset === undefined && relative.startsWith('assets/')) {
    return withSecurityHeaders(errorResponse(new GatewayError('not_found', `Unknown console asset: ${relative}`), requestId));
  }
  const file = asset ?? files.get('index.html');
  if (file === undefined) {
    return withSecurityHeaders(errorResponse(new GatewayError('not_found', 'The console is not built: run `npm run build`.'), requestId));
  }
  const headers = new Headers(securityHeaders);
  headers.set('content-type', file.contentType);
  headers.set('content-length', String(file.body.length));
  headers.set('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  headers.set('x-request-id', requestId);
  return new Response(context.req.method === 'HEAD' ? null : new Uint8Array(file.body), { status: 200, headers });
}

function withSecurityHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(securityHeaders)) response.headers.set(name, value);
  return response;
}
