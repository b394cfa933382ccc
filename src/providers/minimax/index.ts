export { miniMaxAdapter } from './minimax-adapter.js';
