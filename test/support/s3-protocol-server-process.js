// Runs s3rver (an S3-protocol server on the local filesystem) for tests, in its own process:
// `node --openssl-legacy-provider s3-protocol-server-process.js <directory> <bucket>`.
// Prints `listening <port>` once it accepts connections; stops on SIGTERM.
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
if (directory === undefined || bucket === undefined) {
  process.stderr.write('usage: s3-protocol-server-process.js <directory> <bucket>\n');
  process.exit(2);
}
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
const { port } = await server.run();
process.stdout.write(`listening ${port}\n`);
process.once('SIGTERM', () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
