import { describe, expect, it } from 'vitest';
import { readFixtureBytes } from '../../../test/support/fixtures.js';
import { createMp4Probe } from './mp4-duration.js';

const files = ['probe-moov-first-3s.mp4', 'probe-moov-last-3s.mp4', 'upstream-video-320x180-4s.mp4'];
const seconds: Record<string, number> = { 'probe-moov-first-3s.mp4': 3, 'probe-moov-last-3s.mp4': 3, 'upstream-video-320x180-4s.mp4': 4 };

async function* chunks(bytes: Buffer, size: number): AsyncIterable<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

async function probe(bytes: Buffer, size: number): Promise<{ duration: number | undefined; passed: Buffer }> {
  const prober = createMp4Probe();
  const passed: Uint8Array[] = [];
  for await (const chunk of prober.pass(chunks(bytes, size))) passed.push(chunk);
  return { duration: prober.result().durationSeconds, passed: Buffer.concat(passed) };
}

/** A minimal file: ftyp, a version-1 mvhd in moov, then an mdat. */
function versionOneFile(timescale: number, duration: bigint): Buffer {
  const mvhd = Buffer.alloc(8 + 4 + 28 + 80);
  mvhd.writeUInt32BE(mvhd.length, 0);
  mvhd.write('mvhd', 4, 'latin1');
  mvhd[8] = 1;
  mvhd.writeUInt32BE(timescale, 12 + 16);
  mvhd.writeBigUInt64BE(duration, 12 + 20);
  const moov = Buffer.concat([Buffer.from([0, 0, 0, 8 + mvhd.length]), Buffer.from('moov', 'latin1'), mvhd]);
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from('ftypisom', 'latin1'), Buffer.alloc(4)]);
  const mdat = Buffer.concat([Buffer.from([0, 0, 0, 12]), Buffer.from('mdat', 'latin1'), Buffer.alloc(4, 9)]);
  return Buffer.concat([ftyp, mdat, moov]);
}

describe('createMp4Probe', () => {
  for (const file of files) {
    it.each([1, 7, 4096, 1 << 30])(`reads the duration of ${file} fed in chunks of %i bytes, passing every byte on`, async (size) => {
      const bytes = readFixtureBytes(`generated/${file}`);
      const { duration, passed } = await probe(bytes, size);
      expect(duration).toBeCloseTo(seconds[file] ?? 0, 1);
      expect(passed.equals(bytes)).toBe(true);
    });
  }

  it('reads a version-1 movie header', async () => {
    expect((await probe(versionOneFile(1000, 5_000n), 3)).duration).toBe(5);
  });

  it('leaves the duration unknown for truncated or garbage input', async () => {
    const bytes = readFixtureBytes('generated/probe-moov-last-3s.mp4');
    expect((await probe(bytes.subarray(0, bytes.length - 200), 512)).duration).toBeUndefined();
    expect((await probe(Buffer.from('this is not a video file at all, not even close'), 5)).duration).toBeUndefined();
    expect((await probe(Buffer.alloc(0), 5)).duration).toBeUndefined();
  });
});
