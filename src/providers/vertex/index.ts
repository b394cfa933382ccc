export { vertexAdapterFor } from './vertex-adapter.js';
export { vertexApiRoot } from './vertex-api-root.js';
export { vertexBaseUrl } from './vertex-endpoint.js';
