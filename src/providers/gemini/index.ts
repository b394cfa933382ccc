export { geminiAdapter } from './gemini-adapter.js';
