import { destination as pinoDestination, pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * The gateway's structured logger. Credentials are redacted by path so that a header or config
 * object logged by mistake still never shows a key.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream | DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'switchyard' },
      redact: {
        paths: ['authorization', 'headers.authorization', 'headers["x-api-key"]', 'headers["x-goog-api-key"]', 'headers["api-key"]', 'headers["x-amz-security-token"]', 'headers.Authorization', 'apiKey', 'api_key', '*.apiKey', '*.api_key'],
        censor: '[redacted]',
      },
    },
    destination ?? pinoDestination({ fd: 1, sync: false }),
  );
}
