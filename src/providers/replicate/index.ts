export { replicateAdapter } from './replicate-adapter.js';
