// Load for the fair-http service: tenant A floods (keeps `flood` requests of `ms` ms of work in
// flight, each sent the moment the previous one returns) while tenant B sends one request of
// `bMs` ms every `everyMs` ms, from `warmupMs` on. Reports B's latencies — the number a noisy
// neighbour ruins.
//
//   node examples/fair-http/load.mjs URL [--seconds 10] [--flood 64] [--every-ms 1000] [--ms 50]
//                                        [--b-ms 10]
//
// Prints one JSON line: { b: { count, p50, p95, max, serverP95 }, a: { count }, errors }
// (latencies in ms, measured by the client; serverP95: the time inside the service).
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

/** p-th percentile (nearest rank) of `values`, 0 when empty. */
export function percentile(values, p) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function timedGet(url) {
  const start = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  return {
    ok: res.ok,
    ms: performance.now() - start,
    serverMs: Number(res.headers.get('x-server-ms')),
  };
}

/** Runs the load against `base` (the service's URL); resolves with the figures. */
export async function runLoad({
  base,
  seconds = 10,
  flood = 64,
  everyMs = 1000,
  ms = 50,
  bMs = 10,
  warmupMs = 1000,
}) {
  const begin = performance.now();
  const end = begin + seconds * 1000;
  const b = [];
  const bServer = [];
  let a = 0;
  let errors = 0;
  const workUrl = (tenant) => `${base}/work?tenant=${tenant}&ms=${tenant === 'b' ? bMs : ms}`;
  const flooder = async () => {
    while (performance.now() < end) {
      const r = await timedGet(workUrl('a'));
      if (r.ok) a++;
      else errors++;
    }
  };
  const light = async () => {
    const pending = [];
    // B starts once the flood has filled the queue: the steady state is what is measured.
    for (let next = begin + warmupMs; next < end; next += everyMs) {
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      // Sent on its own clock, not after the previous answer: a slow answer must not thin B out.
      pending.push(
        timedGet(workUrl('b')).then((r) => {
          if (!r.ok) return errors++;
          b.push(r.ms);
          bServer.push(r.serverMs);
        }),
      );
    }
    await Promise.all(pending);
  };
  await Promise.all([light(), ...Array.from({ length: flood }, flooder)]);
  const round = (x) => Math.round(x * 10) / 10;
  return {
    b: {
      count: b.length,
      p50: round(percentile(b, 50)),
      p95: round(percentile(b, 95)),
      max: round(Math.max(0, ...b)),
      serverP95: round(percentile(bServer, 95)),
    },
    a: { count: a },
    errors,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      seconds: { type: 'string', default: '10' },
      flood: { type: 'string', default: '64' },
      'every-ms': { type: 'string', default: '1000' },
      ms: { type: 'string', default: '50' },
      'b-ms': { type: 'string', default: '10' },
    },
  });
  const base = positionals[0];
  if (base === undefined) {
    console.error('usage: node load.mjs URL [--seconds N] [--flood N] [--every-ms N] [--ms N]');
    process.exit(2);
  }
  const result = await runLoad({
    base,
    seconds: Number(values.seconds),
    flood: Number(values.flood),
    everyMs: Number(values['every-ms']),
    ms: Number(values.ms),
    bMs: Number(values['b-ms']),
  });
  console.log(JSON.stringify(result));
}
