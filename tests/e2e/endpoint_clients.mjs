// Node.js clients of `lpx endpoint` (node's own http module, no package).
//
//   node endpoint_clients.mjs LPX agreement
//     tiny-llama on lpx3, context 64, max batch 8, --time-scale 0.002 (a
//     simulated microsecond is half a wall millisecond: a decode step of
//     ~23 us is ~12 ms of wall time). At 1, 5, 10 and 50 concurrent clients,
//     each a closed loop of streamed completions (prompt 16 tokens, 8 out,
//     no think time) for 1 s: every stream must complete (8 chunks, finish,
//     [DONE]) or get a 429 with Retry-After; the mean TTFT (first chunk) and
//     mean inter-chunk time, scaled back to simulated time, must agree with
//     `lpx serve --workload closed:users=N,think=0,prompt=16,output=8
//     --duration 2ms` within 10% + the wall clock's noise: 1 ms of wall
//     time, or twice the mean round trip of GET /health (no simulation in
//     it) probed during the run when that is more. Then 50 clients
//     against a queue of 8 places for 1 s, each waiting 20 ms after a 429
//     (not Retry-After's second, to keep the test short): some 429s with
//     Retry-After, every other stream complete.
//   node endpoint_clients.mjs LPX memory
//     --time-scale 1000, max_tokens 2: 10,000 requests from 20 clients; the
//     server's VmRSS after the last may exceed that after the first 1,000 by
//     at most 8 MiB.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const [lpx, mode] = process.argv.slice(2);
const tmp = mkdtempSync(`${tmpdir()}/lpx-endpoint-`);
const core = ['--model', 'tiny-llama', '--chip', 'lpx3', '--context', '64',
              '--cache-dir', `${tmp}/cache`];
const PROMPT = 16, OUTPUT = 8, SCALE = 0.002, LEVEL_S = 1;
let passed = 0, failed = 0;
function check(name, cond, detail = '') {
  if (cond) { passed++; console.log(`ok   ${name}`); }
  else { failed++; console.log(`FAIL ${name} ${detail}`); }
}

function startServer(extra) {
  return new Promise((resolve, reject) => {
    const proc = spawn(lpx, ['endpoint', ...core, '--listen', '127.0.0.1:0', ...extra],
                       { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', d => {
      out += d;
      const m = out.match(/listening on http:\/\/127\.0\.0\.1:(\d+)/);
      if (m) resolve({ proc, port: Number(m[1]) });
    });
    proc.on('exit', code => reject(new Error(`lpx endpoint exited ${code}: ${out}`)));
  });
}
function stopServer(s) {
  return new Promise(resolve => {
    s.proc.removeAllListeners('exit');
    s.proc.on('exit', code => resolve(code));
    s.proc.kill('SIGTERM');
  });
}

/// One completion: its status, the wall times of its token chunks, whether
/// it finished ([DONE] after a finish_reason), Retry-After of a 429.
function complete(port, agent, { stream = true, maxTokens = OUTPUT } = {}) {
  const body = JSON.stringify({ model: 'tiny-llama', prompt: 'x'.repeat(PROMPT),
                                max_tokens: maxTokens, stream });
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request({ host: '127.0.0.1', port, path: '/v1/completions',
                               method: 'POST', agent,
                               headers: { 'Content-Type': 'application/json' } }, res => {
      const r = { status: res.statusCode, t0, times: [], finish: null, done: false,
                  retryAfter: res.headers['retry-after'], simulated: res.headers['x-lpx-simulated'] };
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', d => {
        const now = performance.now();
        buf += d;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const ev = buf.slice(0, i);
          buf = buf.slice(i + 2);
          if (!ev.startsWith('data: ')) continue;
          if (ev === 'data: [DONE]') { r.done = true; continue; }
          const c = JSON.parse(ev.slice(6));
          if (!c.choices.length) continue;
          if (c.choices[0].finish_reason) r.finish = c.choices[0].finish_reason;
          else r.times.push(now);
        }
      });
      res.on('end', () => resolve(r));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const mean = xs => xs.reduce((a, b) => a + b, 0) / xs.length;

/// One GET /health: its round trip in wall ms (no simulation in it).
function healthRtt(port, agent) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    http.get({ host: '127.0.0.1', port, path: '/health', agent }, res => {
      res.resume();
      res.on('end', () => resolve(performance.now() - t0));
    }).on('error', reject);
  });
}

/// `clients` closed loops for `seconds`: every result, and the wall clock's
/// noise meanwhile: the mean round trip of /health, probed every 20 ms.
const sleep = ms => new Promise(r => setTimeout(r, ms));
async function closedLoops(port, clients, seconds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients + 2 });
  const end = performance.now() + seconds * 1000;
  const results = [], rtts = [];
  const probe = (async () => {
    while (performance.now() < end) {
      rtts.push(await healthRtt(port, agent));
      await sleep(20);
    }
  })();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < end) {
      const r = await complete(port, agent);
      results.push(r);
      if (r.status === 429) await sleep(20);
    }
  }));
  await probe;
  agent.destroy();
  results.noiseMs = mean(rtts);
  return results;
}

function wholeStream(r) {
  return r.status === 200 && r.done && r.finish === 'length' &&
         r.times.length === OUTPUT && r.simulated === 'true';
}

async function agreement() {
  const s = await startServer(['--time-scale', String(SCALE)]);
  await complete(s.port); // the greedy text of the prompt, generated once
  for (const n of [1, 5, 10, 50]) {
    const results = await closedLoops(s.port, n, LEVEL_S);
    const bad = results.filter(r => !wholeStream(r) && !(r.status === 429 && r.retryAfter));
    check(`${n} client(s): ${results.length} streams, each complete or a 429`,
          results.length >= n && bad.length === 0, JSON.stringify(bad[0] ?? {}).slice(0, 300));
    const ok = results.filter(wholeStream);
    // Measured, in simulated microseconds: wall ms * 1000 * scale.
    const toSim = ms => ms * 1000 * SCALE;
    const ttft = mean(ok.map(r => toSim(r.times[0] - r.t0)));
    const tpot = mean(ok.map(r => toSim((r.times.at(-1) - r.times[0]) / (r.times.length - 1))));
    const json = JSON.parse(execFileSync(lpx, ['serve', ...core,
      '--workload', `closed:users=${n},think=0,prompt=${PROMPT},output=${OUTPUT}`,
      '--duration', `${LEVEL_S * 1000 * SCALE}ms`, '--json'], { encoding: 'utf8' }));
    // 1 ms of wall time, or twice the noise if the machine is busier.
    const slack = toSim(Math.max(1, 2 * results.noiseMs));
    const agree = (m, p) => Math.abs(m - p) <= 0.10 * p + slack;
    console.log(`     ${n} client(s): ${ok.length} streams; TTFT mean ${ttft.toFixed(1)} us measured, ` +
                `${json.ttft_us.mean.toFixed(1)} predicted (${json.completed} requests); inter-chunk mean ` +
                `${tpot.toFixed(1)} us measured, ${json.tpot_us.mean.toFixed(1)} predicted; /health round trip ` +
                `${results.noiseMs.toFixed(2)} ms`);
    check(`${n} client(s): TTFT agrees with lpx serve`, agree(ttft, json.ttft_us.mean));
    check(`${n} client(s): inter-chunk time agrees with lpx serve`, agree(tpot, json.tpot_us.mean));
  }
  check('SIGTERM: exit 0', (await stopServer(s)) === 0);

  const q = await startServer(['--time-scale', String(SCALE), '--queue', '8']);
  await complete(q.port);
  const results = await closedLoops(q.port, 50, 1);
  const rejected = results.filter(r => r.status === 429);
  check(`50 clients, 8 queue places: ${rejected.length} of ${results.length} got 429, all with Retry-After`,
        rejected.length > 0 && rejected.every(r => r.retryAfter === '1'));
  check('50 clients, 8 queue places: every other stream complete',
        results.every(r => r.status === 429 || wholeStream(r)));
  check('SIGTERM: exit 0', (await stopServer(q)) === 0);
}

function rssKiB(pid) {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return Number(m[1]);
}

async function memory() {
  const s = await startServer(['--time-scale', '1000']);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 21 });
  let sent = 0, good = 0;
  const runTo = async total => {
    await Promise.all(Array.from({ length: 20 }, async () => {
      while (sent < total) {
        sent++;
        const r = await complete(s.port, agent, { maxTokens: 2, stream: sent % 2 === 0 });
        good += r.status === 200;
      }
    }));
  };
  const t0 = performance.now();
  await runTo(1000);
  const before = rssKiB(s.proc.pid);
  await runTo(10000);
  const after = rssKiB(s.proc.pid);
  agent.destroy();
  console.log(`     10,000 requests in ${((performance.now() - t0) / 1000).toFixed(1)} s; ` +
              `VmRSS ${before} KiB after 1,000, ${after} KiB after 10,000`);
  check('10,000 requests all answered 200', good === 10000, String(good));
  check('VmRSS grew by at most 8 MiB from 1,000 to 10,000 requests', after - before <= 8192,
        `${after - before} KiB`);
  check('SIGTERM: exit 0', (await stopServer(s)) === 0);
}

await (mode === 'memory' ? memory() : agreement());
rmSync(tmp, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed || !passed ? 1 : 0);
