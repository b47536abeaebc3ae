// What compressing the server's JSON answers costs and saves (issue 24, item 2).
//
// Starts the built server (server/dist, embedded database, demo data), takes a demo participant
// through the 10:00 calls, then for each answer: its size plain, with brotli at the server's level
// (4) and with gzip (6), and the CPU one compression costs (the work @fastify/compress does per
// request). Then the end-to-end cost: the server's CPU per `variant/current` request under load
// (autocannon), asked with `Accept-Encoding: br` and without.
//
//   npm run build -w server && npm run build -w web && node bench/compression.mjs
// Env: BENCH_SECONDS (5, each autocannon run), BENCH_CONNECTIONS (20).
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { startDemoServer } from './demo-server.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const CLK_TCK = 100;

const server = await startDemoServer();
const { base } = server;

try {
  const math = server.codes.filter((c) => /математике/i.test(c.subjectTest));
  const code = math[Math.floor(math.length / 3)].code;

  let cookie = '';
  const ask = async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers: {
        'content-type': 'application/json',
        'x-requested-with': 'XMLHttpRequest',
        'accept-encoding': 'identity',
        cookie,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.getSetCookie?.() ?? [];
    if (set.length) cookie = set.map((c) => c.split(';')[0]).join('; ');
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text;
  };
  await ask('POST', '/api/Account/login', { activationCode: code });
  const answers = {};
  answers['currentParticipantTest'] = await ask('GET', '/api/exam/test/currentParticipantTest');
  answers['examwork/new'] = await ask('POST', '/api/exam/test/examwork/new', {});
  const workId = JSON.parse(answers['examwork/new']).id;
  answers['variant/current'] = await ask('GET', '/api/exam/test/variant/current');
  const task = JSON.parse(answers['variant/current']).tasks.find((t) => t.answerType === 'short_text');
  answers['saveanswer'] = await ask('PUT', '/api/exam/test/saveanswer', {
    examWorkId: workId,
    variantTaskId: task.variantTaskId,
    value: 'ответ',
    seq: 1,
  });
  answers[`examwork/{id}`] = await ask('GET', `/api/exam/test/examwork/${workId}`);
  answers['/api/docs/json (staff-sized)'] = await ask('GET', '/api/docs/json');

  const cpuPer = (fn, n) => {
    fn();
    const start = process.cpuUsage();
    for (let i = 0; i < n; i++) fn();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / n;
  };
  console.log('| answer | plain | brotli 4 | gzip 6 | CPU brotli 4 | CPU gzip 6 |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name, text] of Object.entries(answers)) {
    const body = Buffer.from(text);
    const n = body.length > 100_000 ? 50 : 500;
    const br = () =>
      brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 4,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      });
    const gz = () => gzipSync(body, { level: 6 });
    console.log(
      `| ${name} | ${body.length} B | ${br().length} B | ${gz().length} B | ${cpuPer(br, n).toFixed(0)} µs | ${cpuPer(gz, n).toFixed(0)} µs |`,
    );
  }

  const ticks = () => {
    const f = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]);
  };
  console.log('\n| variant/current under load | requests/s | server CPU per request | bytes per answer |');
  console.log('|---|---:|---:|---:|');
  for (const encoding of ['identity', 'br', 'gzip']) {
    const before = ticks();
    const result = await autocannon({
      url: `${base}/api/exam/test/variant/current`,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { cookie, 'accept-encoding': encoding },
    });
    const cpuMs = ((ticks() - before) * 1000) / CLK_TCK;
    const perRequest = (cpuMs * 1000) / result.requests.total;
    console.log(
      `| Accept-Encoding: ${encoding} | ${result.requests.average.toFixed(0)} | ${perRequest.toFixed(0)} µs | ${Math.round(result.throughput.total / result.requests.total)} B |`,
    );
  }
} finally {
  await server.stop();
}
