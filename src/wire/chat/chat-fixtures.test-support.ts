/**
 * Test support: reads the recorded upstream fixtures in test/fixtures (never imported by
 * runtime code). `*.chunks.txt` holds one SSE data payload per line, without `[DONE]`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixturesRoot = path.resolve(repositoryRoot, 'test/fixtures');

export function fixturePath(relative: string): string {
  return path.join(fixturesRoot, relative);
}

export function readChunkLines(relative: string): string[] {
  return readFileSync(fixturePath(relative), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

export function readJsonFixture(relative: string): unknown {
  return JSON.parse(readFileSync(fixturePath(relative), 'utf8')) as unknown;
}

export function readTextFixture(relative: string): string {
  return readFileSync(fixturePath(relative), 'utf8');
}

/** Every recorded chat stream, with the non-streamed body of the same provider when one exists. */
export const chatStreamFixtures = [
  { name: 'openai text', chunks: 'openai/chat/openai-text.chunks.txt', body: 'openai/chat/openai-text.json' },
  { name: 'azure model router', chunks: 'openai/chat/azure-model-router.1.chunks.txt', body: undefined },
  { name: 'deepseek tool call', chunks: 'openai-compatible/chat/deepseek-tool-call.chunks.txt', body: 'openai-compatible/chat/deepseek-tool-call.json' },
  { name: 'xai tool call', chunks: 'openai-compatible/chat/xai-tool-call.chunks.txt', body: 'openai-compatible/chat/xai-tool-call.json' },
  { name: 'groq tool call', chunks: 'openai-compatible/chat/groq-tool-call.chunks.txt', body: 'openai-compatible/chat/groq-tool-call.json' },
] as const;
