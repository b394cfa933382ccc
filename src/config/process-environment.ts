import type { Environment } from './load-config.js';

/**
 * The process's environment variables. The configuration is the one place that reads them, so
 * every setting a deployment can change is visible in config/ and validated there.
 */
export function processEnvironment(): Environment {
  return process.env;
}
