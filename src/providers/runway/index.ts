export { runwayAdapter } from './runway-adapter.js';
