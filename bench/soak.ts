// Soak: does a long-running live session keep its memory flat? Opt-in, not part of `npm run bench`:
//
//   npx tsx bench/soak.ts [--minutes N] [--backend threads|sim] [--workload churn|<preset>]
//                         [--workers N] [--load L] [--sample-s S] [--frame-hz H] [--max-slope MB/h]
//
// (No --expose-gc needed: bench/gc.ts's `forceGc` enables it at run time.)
//
// threads (default): the app's live session (real worker threads, frames on the wall clock,
// default 10 Hz, each serialised as a transport would) runs a continuous workload (`churn`:
// bench/memory.ts, arrival rates × `--load`; or a preset, looping) for N wall
// minutes (default 5) while an operator switches policies, cancels and reprioritizes jobs and
// reconnects a client. sim: the same on the simulator for N *virtual* minutes (default 60), as
// fast as it goes. Every `sample-s` seconds (wall or virtual) it records heapUsed after a full GC,
// RSS and the engine's retained structures, then prints the table, the least-squares slope of
// heapUsed over the second half (MB per hour, ± 2 standard errors) and a verdict:
// FLAT (growth below --max-slope, default 10 MB/h, with confidence), GROWING (above it, with
// confidence; exit code 1), INCONCLUSIVE (too noisy: run longer) or OVERLOADED (the engine fell
// behind the workload, so queued work grows; exit code 2).
import { parseArgs } from 'node:util';
import { startLiveSession } from '../engine/host/server/live-session.ts';
import type { Session } from '../engine/host/session/index.ts';
import {
  churnWorkload,
  heapVerdict,
  operatorStep,
  retained,
  settledHeapMb,
  simSession,
  type Retained,
} from './memory.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string' },
    backend: { type: 'string', default: 'threads' },
    workload: { type: 'string', default: 'churn' },
    workers: { type: 'string', default: '2' },
    'sample-s': { type: 'string' },
    'frame-hz': { type: 'string' },
    'max-slope': { type: 'string', default: '10' },
    load: { type: 'string', default: '1' },
  },
});

const backend = args.backend;
if (backend !== 'threads' && backend !== 'sim') {
  throw new Error(`--backend must be threads or sim (got ${backend})`);
}
const isSim = backend === 'sim';
const minutes = Number(args.minutes ?? (isSim ? 60 : 5));
const sampleS = Number(args['sample-s'] ?? (isSim ? 60 : 5));
// Frames at 10 Hz of virtual time would dominate a sim soak; 1 Hz still builds every part.
const frameHz = Number(args['frame-hz'] ?? (isSim ? 1 : 10));
const maxSlope = Number(args['max-slope']);
const workers = Number(args.workers);
/** Multiplies the churn workload's arrival rates. */
const load = Number(args.load);
/** Operator steps (policy switch, cancels, snapshot) every this many seconds (wall or virtual). */
const OPERATOR_S = 15;

interface Sample extends Retained {
  t: number;
  heapMb: number;
  rssMb: number;
  externalMb: number;
  quanta: number;
  submitted: number;
  frameKb: number;
}

const samples: Sample[] = [];
let frames = 0;
let frameBytes = 0;
let maxFrameBytes = 0;
let maxSnapshotBytes = 0;

function watchFrames(session: Session): void {
  session.onFrame((frame) => {
    // A transport serialises every frame once; the size is what a client receives.
    const n = JSON.stringify(frame).length;
    frames++;
    frameBytes = n;
    if (n > maxFrameBytes) maxFrameBytes = n;
  });
}

function sample(session: Session, t: number): void {
  const heapMb = settledHeapMb();
  const mu = process.memoryUsage();
  const c = session.executor.counters;
  const s: Sample = {
    t,
    heapMb,
    rssMb: mu.rss / 2 ** 20,
    externalMb: mu.external / 2 ** 20,
    quanta: c.quanta,
    submitted: c.submitted,
    frameKb: frameBytes / 1024,
    ...retained(session),
  };
  samples.push(s);
  console.log(row(s));
}

const HEADER = [
  't(min)',
  'heap MB',
  'rss MB',
  'ext MB',
  'quanta',
  'jobs',
  'live',
  'splits',
  'tasks',
  'queued',
  'pending',
  'frame KB',
];
function row(s: Sample): string {
  const cells = [
    (s.t / 60).toFixed(1),
    s.heapMb.toFixed(2),
    s.rssMb.toFixed(1),
    s.externalMb.toFixed(1),
    String(s.quanta),
    String(s.submitted),
    String(s.liveJobs),
    String(s.splits),
    String(s.tasks),
    String(s.queued),
    String(s.pending),
    s.frameKb.toFixed(1),
  ];
  return cells.map((c) => c.padStart(9)).join(' ');
}

async function startWorkload(session: Session): Promise<void> {
  const r =
    args.workload === 'churn'
      ? await session.handleCommand({ type: 'loadWorkload', workload: churnWorkload(load) })
      : await session.handleCommand({ type: 'runPreset', preset: args.workload });
  if (!r.ok) throw new Error(`soak: ${args.workload} did not start: ${r.error.message}`);
}

async function soakThreads(): Promise<void> {
  const live = await startLiveSession({ preset: null, config: { workers }, frameHz });
  const session = live.session;
  watchFrames(session);
  await startWorkload(session);
  // A preset brings its own worker count; the soak's wins, as a user's remembered one does.
  session.executor.configure({ workers });
  const start = performance.now();
  const end = start + minutes * 60_000;
  let nextSample = start;
  let nextOp = start + OPERATOR_S * 1000;
  let step = 0;
  while (performance.now() < end) {
    const now = performance.now();
    if (now >= nextOp) {
      const snap = await operatorStep(session, step++);
      if (snap > maxSnapshotBytes) maxSnapshotBytes = snap;
      nextOp += OPERATOR_S * 1000;
    }
    if (now >= nextSample) {
      sample(session, (now - start) / 1000);
      nextSample += sampleS * 1000;
    }
    const wait = Math.max(10, Math.min(nextOp, nextSample, end) - performance.now());
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  sample(session, (performance.now() - start) / 1000);
  await live.close();
}

async function soakSim(): Promise<void> {
  const session = await simSession(args.workload ?? 'churn', frameHz, load);
  watchFrames(session);
  const wallStart = performance.now();
  let step = 0;
  let t = 0;
  sample(session, 0);
  while (t < minutes * 60) {
    // Advance to the next sample, stopping for operator steps on the way.
    const until = Math.min(t + sampleS, minutes * 60);
    while (t < until) {
      const next = Math.min(until, (Math.floor(t / OPERATOR_S) + 1) * OPERATOR_S);
      session.advance((next - t) * 1000);
      t = next;
      if (t % OPERATOR_S === 0) {
        const snap = await operatorStep(session, step++);
        if (snap > maxSnapshotBytes) maxSnapshotBytes = snap;
      }
    }
    sample(session, t);
  }
  console.log(
    `(${minutes} virtual min in ${((performance.now() - wallStart) / 1000).toFixed(1)} s wall)`,
  );
  await session.close();
}

function verdict(): number {
  const last = samples[samples.length - 1]!;
  console.log('');
  console.log(
    `${backend}, ${args.workload}, ${minutes} min, ${samples.length} samples, ` +
      `${last.quanta.toLocaleString('en-US')} quanta, ${last.submitted.toLocaleString('en-US')} jobs, ` +
      `${frames} frames (last ${(frameBytes / 1024).toFixed(1)} KB, max ${(maxFrameBytes / 1024).toFixed(1)} KB), ` +
      `max snapshot ${(maxSnapshotBytes / 1024).toFixed(0)} KB`,
  );
  return heapVerdict(
    samples.map((s) => ({ t: s.t, heapMb: s.heapMb, rssMb: s.rssMb, backlog: s.splits })),
    { maxSlope, unit: isSim ? 'MB per virtual hour' : 'MB/hour', backlog: 'live splits' },
  );
}

console.log(
  `soak: ${backend}, workload ${args.workload}, ${minutes} ${isSim ? 'virtual ' : ''}min, ` +
    `sample every ${sampleS} s, frames at ${frameHz} Hz${isSim ? '' : `, ${workers} workers`}`,
);
console.log(HEADER.map((h) => h.padStart(9)).join(' '));
if (isSim) await soakSim();
else await soakThreads();
process.exitCode = verdict();
