import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVertexCredentials } from '../../src/providers/vertex/vertex-credentials.js';
import { startFakeVertex, type FakeVertex } from './fake-vertex.js';
import { json } from './scripted-upstream/index.js';

let vertex: FakeVertex;
const path = '/v1/projects/test-project/locations/us-east5/publishers/google/models/gemini-2.5-flash:generateContent';

beforeAll(async () => {
  vertex = await startFakeVertex({ tokenLifetimeSeconds: 1 });
  vertex.answer(() => json({ candidates: [] }));
});
afterAll(async () => {
  await vertex.close();
});

/** google-auth-library's own client holding a token, so Vertex is met as the library calls it. */
async function libraryClient(token: string) {
  const { OAuth2Client } = await import('google-auth-library');
  const client = new OAuth2Client();
  client.setCredentials({ access_token: token, expiry_date: Date.now() + 3_600_000 });
  return client;
}

/** A call with the headers the library puts on a request it authorizes. */
async function call(client: Awaited<ReturnType<typeof libraryClient>>, url: string, body: unknown = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }) {
  const headers = new Headers(await client.getRequestHeaders(url));
  headers.set('content-type', 'application/json');
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, data: (await response.json()) as unknown };
}

describe('the fake Vertex AI', () => {
  it('answers the library\'s call bearing a token its token endpoint issued', async () => {
    const token = await createVertexCredentials({ credentialsFile: vertex.account.keyFile }).accessToken();
    const answer = await call(await libraryClient(token), `${vertex.url}${path}`);

    expect(answer).toEqual({ status: 200, data: { candidates: [] } });
    expect(vertex.accepted.at(-1)?.request.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('refuses a token it never issued, and one that has expired, in Google\'s shape', async () => {
    const unknown = await call(await libraryClient('ya29.not-issued'), `${vertex.url}${path}`);
    expect(unknown).toMatchObject({ status: 401, data: { error: { code: 401, status: 'UNAUTHENTICATED', message: expect.stringMatching(/^Request had invalid authentication credentials/) as string } } });

    const token = await createVertexCredentials({ credentialsFile: vertex.account.keyFile }).accessToken();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await call(await libraryClient(token), `${vertex.url}${path}`)).toMatchObject({ status: 401 });
  });

  it('refuses another project, and a path that is no model method', async () => {
    const client = await libraryClient(await createVertexCredentials({ credentialsFile: vertex.account.keyFile }).accessToken());
    expect(await call(client, `${vertex.url}${path.replace('test-project', 'other-project')}`)).toMatchObject({ status: 403, data: { error: { status: 'PERMISSION_DENIED' } } });
    expect(await call(client, `${vertex.url}/v1/projects/test-project/locations/us-east5/models`)).toMatchObject({ status: 404 });
  });

  it('refuses a Claude call without the Vertex version, as Vertex does', async () => {
    const client = await libraryClient(await createVertexCredentials({ credentialsFile: vertex.account.keyFile }).accessToken());
    const url = `${vertex.url}/v1/projects/test-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict`;
    const answer = await call(client, url, { anthropic_version: '2023-06-01', max_tokens: 1, messages: [] });
    expect(answer).toMatchObject({ status: 400, data: { type: 'error', error: { type: 'invalid_request_error' } } });
  });
});
