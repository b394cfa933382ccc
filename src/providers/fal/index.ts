export { falAdapter } from './fal-adapter.js';
