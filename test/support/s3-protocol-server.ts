import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { S3Client } from '@aws-sdk/client-s3';

/** The credentials s3rver accepts (it checks request signatures against them). */
export const s3ProtocolServerCredentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface S3ProtocolServer {
  readonly endpoint: string;
  readonly bucket: string;
  /** Where s3rver keeps the bucket's objects on disk. */
  readonly directory: string;
  /** A path-style client signed with the accepted credentials. */
  client(): S3Client;
  stop(): Promise<void>;
}

const processScript = fileURLToPath(new URL('./s3-protocol-server-process.js', import.meta.url));

/**
 * Starts s3rver on a random port over a new temporary directory, with `bucket` created.
 * It runs in a child process because s3rver's ListObjectsV2 continuation tokens are DES-encrypted,
 * a cipher OpenSSL 3 (Node 17+) offers only with `--openssl-legacy-provider`, a start-up flag.
 */
export async function startS3ProtocolServer(bucket = 'switchyard-content'): Promise<S3ProtocolServer> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'switchyard-s3rver-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', processScript, directory, bucket], { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await listeningPort(child);
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    client: () => new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: s3ProtocolServerCredentials }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}

function listeningPort(child: ChildProcess): Promise<number> {
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`s3rver did not start:\n${output}`));
    }, 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited with ${code}:\n${output}`));
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const port = /listening (\d+)/.exec(output)?.[1];
      if (port === undefined) return;
      clearTimeout(timer);
      resolve(Number(port));
    });
  });
}
