import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const require = createRequire(import.meta.url);

/**
 * undici's connection-pooling dispatcher and its error classes, loaded from their own modules: the
 * package's index also loads fetch, WebSocket, the caches and cookies (and cookies reach for Node's
 * own fetch), some 40 ms of CPU at every start for code the gateway never runs. These are the same
 * modules the index exports, so `instanceof` holds either way.
 */
export const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export type Agent = Undici.Agent;
export const undiciErrors = require('undici/lib/core/errors.js') as typeof Undici.errors;
