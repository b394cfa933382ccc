import { z } from 'zod';
import { numeric } from './model-record-schema.js';

/**
 * What one client connection may cost the server, enforced by Node's HTTP server. None of them
 * cuts a long streamed answer: they bound receiving a request, not sending the answer.
 */
export const clientLimitsShape = {
  /** All request headers must arrive within this (slow-loris); the connection is closed after it. */
  headers_timeout_ms: numeric(z.number().int().positive()).default(20_000),
  /** The whole request (headers and body) must arrive within this, else 408. */
  request_timeout_ms: numeric(z.number().int().positive()).default(300_000),
  /** An idle keep-alive connection is closed after this. */
  keep_alive_timeout_ms: numeric(z.number().int().positive()).default(5_000),
  /** Largest total size of the request line and headers, else 431. */
  max_header_bytes: numeric(z.number().int().min(1024)).default(16 * 1024),
  /**
   * Client connections held open at once (idle keep-alive ones included); a new one beyond it is
   * closed as soon as it is accepted. Each costs a file descriptor and memory whether or not it
   * sends anything, so without a cap one client could open them until the process runs out.
   */
  max_connections: numeric(z.number().int().positive()).default(1024),
};

export const clientLimitDefaults = {
  headers_timeout_ms: 20_000,
  request_timeout_ms: 300_000,
  keep_alive_timeout_ms: 5_000,
  max_header_bytes: 16 * 1024,
  max_connections: 1024,
};
