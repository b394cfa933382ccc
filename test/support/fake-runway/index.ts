export { startFakeRunway, type FakeRunway, type FakeRunwayOptions, type FakeRunwayTask, type OutputDownload, type RunwayCall, type RunwayOutcome, type RunwayStep } from './fake-runway.js';
export { runwayModelRules } from './runway-model-rules.js';
