import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ProbedVideo {
  readonly durationSeconds: number;
  readonly width: number;
  readonly height: number;
  readonly codec: string;
}

/** What Debian's ffprobe reads in the bytes: a real decoder's view, not the gateway's own. */
export async function ffprobe(bytes: Uint8Array): Promise<ProbedVideo> {
  const directory = await mkdtemp(path.join(tmpdir(), 'switchyard-ffprobe-'));
  const file = path.join(directory, 'video.mp4');
  try {
    await writeFile(file, bytes);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'format=duration:stream=width,height,codec_name', '-of', 'json', file]);
    const probed = JSON.parse(stdout) as { format: { duration: string }; streams: { width: number; height: number; codec_name: string }[] };
    const stream = probed.streams[0];
    if (stream === undefined) throw new Error('ffprobe found no video stream');
    return { durationSeconds: Number(probed.format.duration), width: stream.width, height: stream.height, codec: stream.codec_name };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
