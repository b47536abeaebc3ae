// A local S3-protocol server for the tests (test/s3-server.ts starts it as a child process, so a
// test can kill it mid-upload and start it again on the same folder): s3rver, from the npm
// registry. Usage: node s3-server.child.mjs <port> <folder> <bucket>; prints `ready` when it listens.
import S3rver from 's3rver';

const [port, directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(port),
  directory,
  silent: true,
  configureBuckets: [{ name: bucket }],
});
await server.run();
process.stdout.write('ready\n');
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
