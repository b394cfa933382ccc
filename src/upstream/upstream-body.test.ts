import { describe, expect, it } from 'vitest';
import { UpstreamBody } from './upstream-body.js';

function probe(): { body: UpstreamBody; calls: string[] } {
  const calls: string[] = [];
  const body = new UpstreamBody(
    () => calls.push('pause'),
    () => calls.push('resume'),
    () => calls.push('cancel'),
  );
  return { body, calls };
}

describe('an upstream body', () => {
  it('joins chunks that arrived before and after it was asked for', async () => {
    const { body } = probe();
    body.push(Buffer.from('{"a":'));
    const whole = body.text();
    body.push(Buffer.from('1}'));
    body.end();
    expect(await whole).toBe('{"a":1}');
  });

  it('hands chunks over in order and ends', async () => {
    const { body } = probe();
    const received: string[] = [];
    const reading = (async () => {
      for await (const chunk of body.chunks()) received.push(chunk.toString());
    })();
    body.push(Buffer.from('one'));
    await Promise.resolve();
    body.push(Buffer.from('two'));
    body.end();
    await reading;
    expect(received).toEqual(['one', 'two']);
  });

  it('cancels the call when the reader leaves early, and not once the body has ended', async () => {
    const early = probe();
    early.body.push(Buffer.from('x'));
    for await (const chunk of early.body.chunks()) if (chunk.length > 0) break;
    expect(early.calls).toContain('cancel');

    const finished = probe();
    finished.body.push(Buffer.from('x'));
    finished.body.end();
    for await (const chunk of finished.body.chunks()) if (chunk.length > 0) break;
    expect(finished.calls).not.toContain('cancel');
  });

  it('reports a transport failure to the reader', async () => {
    const { body } = probe();
    const whole = body.bytes();
    body.fail(new Error('socket hang up'));
    await expect(whole).rejects.toThrow('socket hang up');
  });

  it('pauses the socket while more than a megabyte waits unread, and resumes as it is read', async () => {
    const { body, calls } = probe();
    body.push(Buffer.alloc(700_000));
    body.push(Buffer.alloc(700_000));
    expect(calls).toEqual(['pause']);
    const iterator = body.chunks();
    await iterator.next();
    expect(calls.at(-1)).toBe('resume');
  });

  it('can be read only once', async () => {
    const { body } = probe();
    body.end();
    await body.bytes();
    expect(() => body.chunks()).toThrow('only once');
  });
});
