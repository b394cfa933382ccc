/** The provider simulator: a deterministic fake upstream speaking OpenAI, Anthropic and Gemini. */
export { startSimulator } from './start-simulator.js';
export type { SimulatorHandle, SimulatorOptions } from './start-simulator.js';
