import { describeKeyLimitsContract } from './key-limits-contract.test-support.js';
import { InProcessKeyLimits } from './in-process-key-limits.js';
import { SharedKeyLimits } from './shared-key-limits.js';

describeKeyLimitsContract('in-memory', (rates, budgets) => new InProcessKeyLimits(rates, budgets));
describeKeyLimitsContract('through the ports', (rates, budgets) => new SharedKeyLimits(rates, budgets));
