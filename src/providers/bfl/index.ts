export { bflAdapter } from './bfl-adapter.js';
