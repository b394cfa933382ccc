import { describeUpstreamCapsContract } from './upstream-caps-contract.test-support.js';
import { InProcessUpstreamCaps } from './in-process-upstream-caps.js';

describeUpstreamCapsContract('in-memory', () => new InProcessUpstreamCaps());
