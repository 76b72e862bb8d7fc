// A small node:http service: GET /work?tenant=a&ms=20 runs `ms` of CPU work in a worker thread for
// `tenant`. The pool is SchedLab's `Pool` (tenant-fair) or Piscina (FIFO) — the same code, one
// import apart:
//
//   node examples/fair-http/server.mjs [--pool schedlab|piscina] [--policy fair|mlfq|priority|fifo]
//                                      [--workers 2] [--quantum-ms 10] [--port 0] [--console]
//                                      [--allow-control] [--max-live-per-tenant N]
//
// Prints `listening http://127.0.0.1:PORT` when ready. SIGTERM or SIGINT closes it. `--console`
// (SchedLab only) also serves the app's console and prints `console URL`: `schedlab attach URL`
// opens the app on it, the service's tenants as its groups. It is read-only unless
// `--allow-control`: then the app may change the policy, the knobs and the tenants' weights.
// `--max-live-per-tenant N` (SchedLab only) bounds each tenant's requests in the pool: a tenant
// with N not answered yet gets `429 Too Many Requests` for the next, while other tenants are
// still served (a full pool, `maxQueued`, is `503`).
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    pool: { type: 'string', default: 'schedlab' },
    policy: { type: 'string', default: 'fair' },
    workers: { type: 'string', default: '2' },
    'quantum-ms': { type: 'string', default: '10' },
    port: { type: 'string', default: '0' },
    console: { type: 'boolean', default: false },
    'allow-control': { type: 'boolean', default: false },
    'max-live-per-tenant': { type: 'string' },
  },
});
const filename = new URL('./task.mjs', import.meta.url).href;
const maxThreads = Number(args.workers);

let pool;
if (args.pool === 'piscina') {
  const { Piscina } = await import('piscina');
  pool = new Piscina({ filename, minThreads: maxThreads, maxThreads });
} else {
  const { Pool } = await import('schedlab');
  pool = new Pool({
    filename,
    maxThreads,
    policy: args.policy,
    quantumMs: Number(args['quantum-ms']),
    ...(args['max-live-per-tenant'] === undefined
      ? {}
      : { maxLivePerTenant: Number(args['max-live-per-tenant']) }),
  });
  await pool.scheduler.ready();
  if (args.console) {
    const served = await pool.scheduler.serveConsole({ allowControl: args['allow-control'] });
    console.log(`console ${served.url}`);
  }
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://localhost');
  if (url.pathname === '/stats' && pool.scheduler !== undefined) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(pool.scheduler.stats()));
    return;
  }
  if (url.pathname !== '/work') {
    res.writeHead(404).end();
    return;
  }
  const tenant = url.searchParams.get('tenant') ?? 'anonymous';
  const ms = Math.min(1000, Math.max(1, Number(url.searchParams.get('ms') ?? 20) || 20));
  const start = performance.now();
  try {
    const result = await pool.run({ ms }, { tenant }); // Piscina ignores `tenant`
    // How long the request spent in the service, pool included (the client adds the network).
    const serverMs = (performance.now() - start).toFixed(1);
    res.writeHead(200, { 'content-type': 'application/json', 'x-server-ms': serverMs });
    res.end(JSON.stringify({ result }));
  } catch (error) {
    res.writeHead(statusOf(error), { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: error.code ?? error.message, message: error.message }));
  }
});

/**
 * A request the pool refused as it stands (a bad tenant name) is the client's (400); the tenant's
 * own bound is the client's to back off from (429); a full pool is ours (503).
 */
function statusOf(error) {
  if (error.code === 'INVALID_ARGUMENT') return 400;
  if (error.code !== 'QUEUE_FULL') return 500;
  return error.field === 'maxLivePerTenant' ? 429 : 503;
}

server.listen(Number(args.port), '127.0.0.1', () => {
  console.log(`listening http://127.0.0.1:${server.address().port}`);
});

async function stop() {
  server.close();
  await pool.destroy();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
