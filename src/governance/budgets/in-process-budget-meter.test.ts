import { describeBudgetMeterContract } from './budget-meter-contract.test-support.js';
import { InProcessBudgetMeter } from './in-process-budget-meter.js';

describeBudgetMeterContract('in-memory', (readSpend, now, reservationTtlMs) => new InProcessBudgetMeter(readSpend, now, reservationTtlMs));
