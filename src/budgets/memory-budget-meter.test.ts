import { describeBudgetMeterContract } from './budget-meter-contract.js';
import { MemoryBudgetMeter } from './memory-budget-meter.js';

describeBudgetMeterContract('in-memory', (readSpend, now, reservationTtlMs) => new MemoryBudgetMeter(readSpend, now, reservationTtlMs));
