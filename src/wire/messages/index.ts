export type * from './messages-types.js';
export * from './messages-usage.js';
export * from './stop-reason.js';
export * from './error-type.js';
export type * from './messages-response-types.js';
export * from './sse-event.js';
export * from './tool-input.js';
