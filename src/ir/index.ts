export type * from './content.js';
export type * from './message.js';
export type * from './tool.js';
export type * from './request.js';
export type * from './response.js';
export type * from './stream-event.js';
export type * from './finish-reason.js';
export * from './usage.js';
export { StreamAccumulator } from './stream-accumulator.js';
