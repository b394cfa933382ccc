import { describe, expect, it } from 'vitest';
import { startLine } from './start-line.js';

describe('startLine', () => {
  it('names the address, the models by modality, the database and open access', () => {
    const line = startLine({
      url: 'http://127.0.0.1:8787',
      models: [
        { id: 'sim-gpt', outputModality: 'text' },
        { id: 'sim-claude', outputModality: 'text' },
        { id: 'sim-image', outputModality: 'image' },
      ],
      database: 'SQLite /srv/switchyard/data/switchyard.db',
      openAccess: 'until-first-key',
    });
    expect(line).toBe(
      'switchyard listening on http://127.0.0.1:8787 | text models: sim-gpt, sim-claude | image models: sim-image | ' +
        'database: SQLite /srv/switchyard/data/switchyard.db | open access: on until the first API key is created',
    );
    expect(line).not.toContain('\n');
  });

  it('says so when no model can be called and when keys are required', () => {
    const line = startLine({ url: 'http://0.0.0.0:8787', models: [], database: 'SQLite in memory', openAccess: 'off' });
    expect(line).toBe('switchyard listening on http://0.0.0.0:8787 | no callable models | database: SQLite in memory | open access: off, every call needs an API key');
  });
});

describe('startLine with Redis', () => {
  it('names the Redis that limits are shared through, after the database', () => {
    const line = startLine({ url: 'http://127.0.0.1:8787', models: [], database: 'SQLite in memory', redis: 'redis://:***@cache.internal:6379/0', openAccess: 'off' });
    expect(line).toBe(
      'switchyard listening on http://127.0.0.1:8787 | no callable models | database: SQLite in memory | redis: redis://:***@cache.internal:6379/0 | open access: off, every call needs an API key',
    );
  });
});
