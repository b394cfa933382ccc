import { describeUpstreamCapsContract } from './upstream-caps-contract.js';
import { MemoryUpstreamCaps } from './memory-upstream-caps.js';

describeUpstreamCapsContract('in-memory', () => new MemoryUpstreamCaps());
