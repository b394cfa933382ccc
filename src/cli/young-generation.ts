import { setFlagsFromString } from 'node:v8';
import { processEnvironment } from '../config/process-environment.js';

/** V8's own growth factor: the young generation doubles when a scavenge finds it too small. */
const defaultGrowthFactor = 2;

/** An operator who sized the young generation (on the command line or in NODE_OPTIONS) keeps it. */
const sizedByOperator = [...process.execArgv, processEnvironment().NODE_OPTIONS ?? ''].some((argument) => argument.includes('semi-space'));

/**
 * Keeps V8's young generation at its first size (1 MB a semi-space) until `releaseYoungGeneration`.
 * Called by bin/switchyard.js before the gateway's code is loaded: compiling that code promotes
 * most of what it allocates, and by V8's rule that doubles the young generation to 8–16 MB a
 * semi-space, which a quiet gateway then keeps for some 20 seconds (8 to 17 MB of its idle RSS).
 * At its first size the start costs a few more scavenges, some 20–40 ms of CPU.
 */
export function holdYoungGeneration(): void {
  if (!sizedByOperator) setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * Lets the young generation grow again, once the gateway serves: under load it sizes itself as V8
 * would have, so calls pay no extra scavenges.
 */
export function releaseYoungGeneration(): void {
  if (!sizedByOperator) setFlagsFromString(`--semi-space-growth-factor=${defaultGrowthFactor}`);
}
