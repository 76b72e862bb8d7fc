// `npm run fuzz [-- SECONDS]` (opt-in, not part of `npm test`): throws random messages, commands
// and workload documents at a live browser-mode server on real threads for SECONDS (default 60),
// and fails on a hang (a message with an id unanswered for 30 s, or no frame for 10 s), a crash,
// or an unbalanced count (replies + errors with an id ≠ messages sent with an id).
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { PRESET_NAMES } from '../engine/core/workload/presets/index.ts';
import { startLiveSession } from '../engine/host/server/live-session.ts';
import { startServer } from '../engine/host/server/server.ts';

const seconds = Number(process.argv[2] ?? 60);
const ANSWER_MS = 30_000;
const FRAME_GAP_MS = 10_000;

const big = fc.oneof(fc.constant(1e9), fc.constant(1e308), fc.constant(-1), fc.integer());
const klass = fc.record({
  name: fc.string({ minLength: 1, maxLength: 4 }),
  arrival: fc.oneof(
    fc.record({ kind: fc.constant('once'), count: big }),
    fc.record({ kind: fc.constant('poisson'), rate: big, count: big }),
  ),
  tasks: big,
  splits: fc.record({ leaf: big, intermediate: fc.nat(4) }),
  work: fc.record({ totalMs: fc.nat(50) }),
});
const workload = fc.oneof(
  fc.record({ durationMs: fc.nat(5000), classes: fc.array(klass, { maxLength: 3 }) }),
  fc.record({
    generator: fc.constantFrom('wavefront', 'layered-random', 'chain', 'binary-tree'),
    rows: big,
    cols: big,
    levels: big,
    width: big,
    length: big,
    depth: big,
  }),
  fc.anything(),
);
const command = fc.oneof(
  fc.record({ type: fc.constant('loadWorkload'), workload }),
  fc.record({ type: fc.constant('runPreset'), preset: fc.constantFrom(...PRESET_NAMES, 'nope') }),
  fc.record({ type: fc.constant('configure'), config: fc.dictionary(fc.string(), fc.anything()) }),
  fc.record({ type: fc.constantFrom('pause', 'resume', 'snapshot') }),
  fc.record({ type: fc.constant('cancelJob'), jobId: big }),
  fc.record({
    type: fc.constant('setTenantWeights'),
    weights: fc.oneof(fc.dictionary(fc.string(), fc.oneof(fc.double(), big)), fc.anything()),
  }),
  fc.record({ type: fc.constant('tenantWeights') }),
  fc.record({ type: fc.string() }),
);

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'schedlab-fuzz-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html>');
  const live = await startLiveSession({ config: { workers: 2 } });
  const server = await startServer({ session: live, staticDir: dir });
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`);
  const waiting = new Map<number, number>();
  let sent = 0;
  let answered = 0;
  let lastFrame = Date.now();
  ws.on('message', (data: Buffer) => {
    const m = JSON.parse(data.toString('utf8')) as { type: string; id?: number };
    if (m.type === 'frame') lastFrame = Date.now();
    if (m.id !== undefined && waiting.delete(m.id)) answered++;
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const end = Date.now() + seconds * 1000;
  let failure: string | null = null;
  for (let id = 1; Date.now() < end && failure === null; id++) {
    const raw = fc.sample(fc.oneof(command, fc.anything()), 1)[0];
    if (id % 10 === 0) ws.send(fc.sample(fc.string(), 1)[0]!); // not JSON: answered without id
    ws.send(JSON.stringify({ id, command: raw }));
    waiting.set(id, Date.now());
    sent++;
    await new Promise((r) => setTimeout(r, 20));
    const oldest = Math.min(...waiting.values());
    if (Date.now() - oldest > ANSWER_MS) failure = `a message went unanswered for ${ANSWER_MS} ms`;
    if (Date.now() - lastFrame > FRAME_GAP_MS) failure = `no frame for ${FRAME_GAP_MS} ms`;
  }
  const settle = Date.now() + ANSWER_MS;
  while (waiting.size > 0 && Date.now() < settle) await new Promise((r) => setTimeout(r, 100));
  if (failure === null && answered !== sent)
    failure = `unbalanced: ${sent} messages with an id, ${answered} answered`;
  ws.close();
  await server.close();
  await live.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(`fuzz: ${sent} messages in ${seconds} s, ${answered} answered`);
  if (failure !== null) console.error(`fuzz: FAILED: ${failure}`);
  return failure === null ? 0 : 1;
}

process.exitCode = await main();
