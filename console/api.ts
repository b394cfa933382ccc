import { forgetAdminKey, savedAdminKey } from './session.js';

/** An error answer of the gateway, in the OpenAI error shape every `/admin` and `/v1` path uses. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
  }
}

/** Called when the key stops being accepted (revoked or rotated away), so the app returns to sign-in. */
let onSignedOut: () => void = () => undefined;
export function whenSignedOut(listener: () => void): void {
  onSignedOut = listener;
}

function authorised(init: RequestInit = {}, key = savedAdminKey()): RequestInit {
  const headers = new Headers(init.headers);
  if (key !== null) headers.set('authorization', `Bearer ${key}`);
  if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return { ...init, headers };
}

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: { message?: string; code?: string; type?: string } };
    return new ApiError(response.status, body.error?.code ?? body.error?.type ?? null, body.error?.message ?? text);
  } catch {
    return new ApiError(response.status, null, text === '' ? `HTTP ${response.status}` : text);
  }
}

/** A call with the signed-in key; the raw answer, for streams, headers and downloads. Throws ApiError on an error status. */
export async function call(path: string, init: RequestInit = {}, key?: string): Promise<Response> {
  const response = await fetch(path, authorised(init, key ?? savedAdminKey()));
  if (response.ok) return response;
  const error = await errorOf(response);
  if (response.status === 401 && key === undefined) {
    forgetAdminKey();
    onSignedOut();
  }
  throw error;
}

/** A JSON call with the signed-in key. */
export async function getJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  return (await (await call(path, init)).json()) as T;
}

export function sendJson<T>(path: string, method: string, body: unknown): Promise<T> {
  return getJson<T>(path, { method, body: JSON.stringify(body) });
}

/** A query string from the parameters that are set. */
export function query(parameters: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
