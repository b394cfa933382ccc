import { describeKeyRateLimiterContract } from './key-rate-limiter-contract.js';
import { MemoryKeyRateLimiter } from './memory-key-rate-limiter.js';

describeKeyRateLimiterContract('in-memory', (now) => new MemoryKeyRateLimiter(now));
