// Soak for the library: does a service's `Scheduler` keep its memory flat? Opt-in, not part of
// `npm run bench` (run `npm run build` first: it imports the compiled package, as a service does):
//
//   npx tsx bench/soak-library.ts [--minutes N] [--rate R] [--workers N] [--sample-s S]
//                                 [--max-slope MB/h]
//
// A service's life for N wall minutes (default 10): `rate` runs a second (default 2000) in ticks
// of 20 ms, for tenants that rotate through 2,000 names plus one never seen before in every ten
// runs (names without end, as per-user tenants are); most runs `x + 1`, the rest a short busy
// run, a failing one, runs with an abort signal (aborted after a few ms, or never), runs with a
// timeout that fires. `stats()` is read every second, as a metrics endpoint would. The console is
// served, and a client attaches, reads frames, searches jobs, follows one, and is replaced by a
// new client every 15 s, when the policy also changes (mlfq → fair → priority) and every tenant's
// bound is turned on (`maxLivePerTenant` 1: a tenant's run while its slow one is in flight is
// rejected; one run in 200 is such a run) or off. Every `sample-s` seconds it records heapUsed after a full GC and the runs in
// flight, then prints the table and the verdict on the second half's heap slope
// (bench/memory.ts `heapVerdict`).
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { Scheduler, type RunningConsole, type SchedulerStats } from 'schedlab';
import { WS_PATH } from '../shared/transport.ts';
import { heapVerdict, settledHeapMb, type SoakPoint } from './memory.ts';
import { POOL_TASKS } from './baselines/piscina-pool.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '2000' },
    workers: { type: 'string', default: '2' },
    'sample-s': { type: 'string', default: '10' },
    'max-slope': { type: 'string', default: '10' },
  },
});
const minutes = Number(args.minutes);
const rate = Number(args.rate);
const sampleS = Number(args['sample-s']);
const maxSlope = Number(args['max-slope']);
const TICK_MS = 20;
const OPERATOR_S = 15;
const ROTATING_TENANTS = 2_000;
const POLICIES = ['mlfq', 'fair', 'priority'] as const;

const FIXTURES = new URL('../engine/lib/fixtures/tasks.mjs', import.meta.url);
const inc = { module: POOL_TASKS, export: 'inc' };
const work = { module: FIXTURES, export: 'work' };
const boom = { module: FIXTURES, export: 'boom' };
const forever = { module: FIXTURES, export: 'forever' };

const scheduler = new Scheduler({ workers: Number(args.workers), maxQueued: 1_000_000 });
/** How runs ended, by result or error code: a soak that only failed would look flat too. */
const outcomes = new Map<string, number>();
let inFlight = 0;
let submitted = 0;
let fresh = 0;

function count(key: string): void {
  inFlight--;
  outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
}

function submit(i: number): void {
  const tenant = i % 10 === 9 ? `new-${fresh++}` : `t-${i % ROTATING_TENANTS}`;
  const options = { tenant, class: `c${i % 5}`, priority: i % 100 };
  const pick = i % 200;
  let run: Promise<unknown>;
  if (pick < 170) run = scheduler.run(inc, i, options);
  else if (pick < 180) run = scheduler.run(work, { ms: 0.2, label: 'done' }, options);
  else if (pick < 186) run = scheduler.run(boom, null, options);
  else if (pick < 188) {
    const abort = new AbortController();
    setTimeout(() => abort.abort('soak'), 2 + (i % 5));
    run = scheduler.run(forever, 0, { ...options, signal: abort.signal });
  } else if (pick < 190) {
    run = scheduler.run(forever, 0, { ...options, timeoutMs: 3 });
    // Its tenant at once again, while that run is surely in flight: refused `QUEUE_FULL` while
    // every tenant's bound is 1, run otherwise.
    if (pick === 189) track(scheduler.run(inc, i, options));
  } else run = scheduler.run(inc, i, { ...options, signal: new AbortController().signal });
  track(run);
}

function track(run: Promise<unknown>): void {
  inFlight++;
  submitted++;
  run.then(
    () => count('succeeded'),
    (e: { code?: string }) => count(e.code ?? 'unknown'),
  );
}

/** An attached console client: frames counted, a job search and a job's detail each step. */
class Client {
  readonly ws: WebSocket;
  frames = 0;
  private nextId = 1;
  constructor(served: RunningConsole) {
    const url = new URL(WS_PATH, `ws://127.0.0.1:${served.port}`);
    url.searchParams.set('token', served.token);
    this.ws = new WebSocket(url);
    this.ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8')) as {
        type?: string;
        result?: { jobs?: { id: number }[] };
      };
      if (m.type === 'frame') this.frames++;
      const job = m.result?.jobs?.[0];
      if (job !== undefined) this.send({ type: 'jobDetail', jobId: job.id });
    });
    this.ws.on('open', () => this.send({ type: 'findJobs', query: 'tenant:t-7' }));
    // Replaced before it connected (a slow turn): closing it then is an error event, not a fault.
    this.ws.on('error', () => {});
  }
  send(command: Record<string, unknown>): void {
    if (this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ id: this.nextId++, command }));
    }
  }
}

interface Sample extends SoakPoint {
  submitted: number;
  stats: SchedulerStats;
}
const samples: Sample[] = [];

function sample(t: number): void {
  const stats = scheduler.stats();
  const heapMb = settledHeapMb();
  const s: Sample = {
    t,
    heapMb,
    rssMb: process.memoryUsage().rss / 2 ** 20,
    backlog: stats.runs.queued + stats.runs.running,
    submitted,
    stats,
  };
  samples.push(s);
  const cells = [
    (t / 60).toFixed(1),
    heapMb.toFixed(2),
    s.rssMb.toFixed(1),
    String(submitted),
    String(stats.runs.queued),
    String(stats.runs.running),
    String(inFlight),
    String(stats.tenants.length),
  ];
  console.log(cells.map((c) => c.padStart(10)).join(' '));
}

const served = await scheduler.serveConsole({ build: false });
let client = new Client(served);
let clientFrames = 0;
console.log(
  `soak-library: ${minutes} min, ${rate} runs/s, ${args.workers} workers, sample every ${sampleS} s`,
);
const HEADER = ['t(min)', 'heap MB', 'rss MB', 'runs', 'queued', 'running', 'in flight', 'tenants'];
console.log(HEADER.map((h) => h.padStart(10)).join(' '));

const start = performance.now();
const end = start + minutes * 60_000;
let nextSample = start;
let nextOp = start + OPERATOR_S * 1000;
let nextStats = start + 1000;
let step = 0;
let i = 0;
let owed = 0;
let last = start;
while (performance.now() < end) {
  const now = performance.now();
  owed += ((now - last) * rate) / 1000;
  last = now;
  for (; owed >= 1; owed--) submit(i++);
  if (now >= nextStats) {
    scheduler.stats();
    nextStats += 1000;
  }
  if (now >= nextOp) {
    scheduler.configure({
      policy: POLICIES[++step % POLICIES.length]!,
      maxLivePerTenant: step % 2 === 1 ? 1 : null,
    });
    clientFrames += client.frames;
    client.ws.close();
    client = new Client(served);
    nextOp += OPERATOR_S * 1000;
  }
  if (now >= nextSample) {
    sample((now - start) / 1000);
    nextSample += sampleS * 1000;
  }
  await new Promise((resolve) => setTimeout(resolve, TICK_MS));
}
sample((performance.now() - start) / 1000);
clientFrames += client.frames;
client.ws.close();
await scheduler.close();

console.log('');
const ended = [...outcomes].map(([k, n]) => `${k} ${n.toLocaleString('en-US')}`).join(', ');
console.log(
  `library, ${minutes} min, ${samples.length} samples, ${submitted.toLocaleString('en-US')} runs ` +
    `(${ended}), ${fresh.toLocaleString('en-US')} one-off tenants, ${clientFrames} console frames ` +
    `over ${step + 1} clients`,
);
process.exitCode = heapVerdict(samples, { maxSlope, unit: 'MB/hour', backlog: 'runs in flight' });
