export { outputUrlLifetimeMs, startFakeReplicate, type FakeReplicate, type FakeReplicateOptions, type FakeReplicateRequest, type ScriptedRefusal } from './fake-replicate.js';
export type { FakePrediction } from './prediction-lifecycle.js';
