/** The simulator's cloud platforms, loaded together by `loadCloudEndpoints` on the first request for one. */
export { handleBedrock } from './bedrock/handle-bedrock.js';
export { handleVertex } from './vertex/handle-vertex.js';
