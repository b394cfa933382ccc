import { describeKeyRateLimiterContract } from './key-rate-limiter-contract.js';
import { MemoryKeyRateLimiter } from './memory-key-rate-limiter.js';

describeKeyRateLimiterContract('in-memory', (now, windowMs) => new MemoryKeyRateLimiter(now, windowMs));
