import { describeKeyLimitsContract } from './key-limits-contract.js';
import { MemoryKeyLimits } from './memory-key-limits.js';
import { PortKeyLimits } from './port-key-limits.js';

describeKeyLimitsContract('in-memory', (rates, budgets) => new MemoryKeyLimits(rates, budgets));
describeKeyLimitsContract('through the ports', (rates, budgets) => new PortKeyLimits(rates, budgets));
