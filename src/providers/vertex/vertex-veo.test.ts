import { describe, expect, it } from 'vitest';
import { readJsonFixture } from '../../../test/support/fixtures.js';
import type { UpstreamTarget } from '../provider-adapter.js';
import { cloudStorageMediaUrl, vertexVeoGeneration } from './vertex-veo.js';

const target: UpstreamTarget = {
  providerName: 'vertex',
  kind: 'vertex',
  baseUrl: 'https://us-central1-aiplatform.googleapis.com',
  model: 'veo-3.0-generate-001',
  vertex: { project: 'my-project', location: 'us-central1' },
};
const name = 'projects/my-project/locations/us-central1/publishers/google/models/veo-3.0-generate-001/operations/a1b2';

describe('Veo on Vertex AI', () => {
  it('polls by POSTing the operation name to fetchPredictOperation', () => {
    expect(vertexVeoGeneration.buildPoll(name, target)).toEqual({
      method: 'POST',
      url: 'https://us-central1-aiplatform.googleapis.com/v1/projects/my-project/locations/us-central1/publishers/google/models/veo-3.0-generate-001:fetchPredictOperation',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operationName: name }),
    });
  });

  it('reads a video at a gs:// URI through Cloud Storage\'s JSON API', () => {
    const state = vertexVeoGeneration.decodePoll({ name, done: true, response: { videos: [{ gcsUri: 'gs://my-bucket/veo/1754/sample_0.mp4', mimeType: 'video/mp4' }] } }, {}, target);
    expect(state).toEqual({ status: 'completed', downloads: { video: 'https://storage.googleapis.com/storage/v1/b/my-bucket/o/veo%2F1754%2Fsample_0.mp4?alt=media' } });
  });

  it('claims Cloud Storage for its token, and no other host a link may name', () => {
    const claims = (url: string) => vertexVeoGeneration.credentialedContentHost?.(new URL(url), target);
    expect(claims(cloudStorageMediaUrl('gs://my-bucket/veo/sample_0.mp4'))).toBe(true);
    expect(claims('https://storage.googleapis.com.example.com/storage/v1/b/x/o/y')).toBe(false);
    expect(claims('https://cdn.example.com/video.mp4')).toBe(false);
  });

  it('hands an inline video on as a data: URL of its own type', () => {
    const state = vertexVeoGeneration.decodePoll({ name, done: true, response: { videos: [{ bytesBase64Encoded: 'AAAA', mimeType: 'video/mp4' }] } }, {}, target);
    expect(state).toEqual({ status: 'completed', downloads: { video: 'data:video/mp4;base64,AAAA' } });
  });

  it('reads a pending operation, and the recorded one whose samples were all filtered', () => {
    expect(vertexVeoGeneration.decodePoll({ name }, {}, target)).toEqual({ status: 'in_progress' });
    const filtered = vertexVeoGeneration.decodePoll(readJsonFixture('google/veo/observed-image-router-41.vertex-operation-rai-filtered.json'), {}, target);
    expect(filtered).toMatchObject({ status: 'failed', error: { code: 'content_filtered' } });
  });

  it('refuses a storage URI that names no object', () => {
    expect(() => cloudStorageMediaUrl('gs://bucket-only')).toThrow(expect.objectContaining({ code: 'upstream_invalid_response' }));
  });
});
