/**
 * The largest workload and graph the engine accepts, so that no single document can freeze the
 * event loop or exhaust memory (docs/limits.md). A value over a limit is refused up front by the
 * schema, as `INVALID_WORKLOAD` naming the field and the limit.
 *
 * The figures come from measuring this engine (Node 20, one 2-core 23 GB machine):
 * - a split costs about 610 bytes once drawn and submitted (its draft plus the executor's
 *   records), and drawing plus submitting 100,000 of them took 1.5 s on the event loop; a job
 *   is drawn whole when it arrives, so one job is held to 10,000 splits (≈ 6 MB, ≈ 150 ms);
 * - a whole run holds more per split it holds than that (its job's records, reports, rings):
 *   0.9–1.1 KB by peak RSS, 2,000,000 splits waiting at once 1.8–2.3 GB (25 s). A `maxQueued` of
 *   10,000,000, allowed before, ran out of Node's 4 GB heap (an abort after 2 minutes);
 * - a graph node costs about 70 bytes compiled and running (typed arrays: cost, b-level, order,
 *   in-degree, state), an edge about 24 bytes at its peak while generated (from/to growing, then
 *   the successor list); 2^20 nodes and 4 × 2^20 edges are ≈ 170 MB, compiled in 0.4 s on a
 *   quiet machine (3–4 s at a load average of 25);
 * - arrivals are drawn lazily, one pending timer per class, so the count of jobs bounds the run's
 *   work rather than its memory; the executor holds at most `maxQueued` splits waiting (its
 *   maximum is `MAX_QUEUED`), and a workload asks for at most `MAX_WORKLOAD_SPLITS` in all.
 */

/**
 * Any one length of work in a document, ms: a split's `totalMs`, `perCallMs` and `blockedMs` (each
 * distribution's parameters), a generator's, a graph node's `cost`. A day: without a bound,
 * `1e303` ms passed the schema and overflowed to Infinity ns when a job was drawn, mid-run.
 */
export const MAX_WORK_MS = 86_400_000;
/**
 * Any time on a workload's clock, ms (`durationMs`, `atMs`, `startMs`, `everyMs`, a timeline
 * step's `atMs`, `controllerIntervalMs`): 100 days, whose nanoseconds are still exact integers
 * (below 2^53).
 */
export const MAX_WORKLOAD_MS = 8_640_000_000;

/**
 * A workload or graph file the CLI reads, bytes: 256 MiB, room for an explicit graph at the node
 * and edge limits (≈ 150 MB of JSON). Read up to this and no further, so `/dev/zero` or a
 * runaway file is refused rather than read until memory runs out.
 */
export const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;
/**
 * Objects and arrays a document file may hold: the largest graph (2^20 node objects, each with a
 * module kernel object, and 4 × 2^20 edge objects) holds 6.3 M, so 8 M leaves room for the rest. JSON.parse builds
 * every one before any schema can count them: a 60 MB file of 20 M `{}` took 26 s and 1.9 GB to
 * be refused, and 85 M under the byte limit ran past 3 GB. Counted on the bytes first (≈ 1 ns a
 * byte), such a file is refused in well under a second.
 */
export const MAX_DOCUMENT_CONTAINERS = 8_000_000;

/**
 * A name or label a document gives and the app shows (a workload's name, a timeline mark, a graph
 * node's id): characters. A 15 MiB name was taken and sent back in every snapshot.
 */
export const MAX_LABEL_CHARS = 200;
/** A workload's description: characters. */
export const MAX_DESCRIPTION_CHARS = 10_000;
/** A user module's path or file: URL (Linux's PATH_MAX), and the name of its export: characters. */
export const MAX_MODULE_CHARS = 4096;
export const MAX_EXPORT_CHARS = MAX_LABEL_CHARS;
/**
 * Distinct module exports (`module#export`) one threads backend runs: each stays loaded in every
 * worker for good (Node keeps every module it imported), so names made from requests would grow
 * it without end.
 */
export const MAX_MODULE_EXPORTS = 1024;

/**
 * Arrays and objects nested in a value handed to a user's module (`work.input` of a workload's
 * class or a submitted job's split), and in any value the cluster sends as JSON
 * (engine/runtime/cluster/json-value.ts). Copying a value recurses once per level: 100,000 levels
 * (a 200 KB file) overflowed the stack copying the workload, an uncoded engine failure. Here
 * `structuredClone` overflows Node's default stack at about 2,000 levels of objects (3,300 of
 * arrays) called from an empty stack; 512 leaves room for its callers' frames.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * Calls one split makes (`totalNanos / perCallNanos`), each a quantum of its own: a `perCallMs` of 0
 * became 1 ns, so a 1 s split made 10^9 calls and a run of a few such splits ran for hours with no
 * output. A workload's drawn per-call time is raised to `totalMs / MAX_CALLS_PER_SPLIT` where it is
 * below it; a job a client submits is refused (`perCallNanos`).
 */
export const MAX_CALLS_PER_SPLIT = 100_000;

/** Splits in one job: `tasks × (splits.leaf + splits.intermediate)`. */
export const MAX_SPLITS_PER_JOB = 10_000;
/** Jobs one class submits (`arrival.count`), and tasks a Trino spec runs (`totalTasks`). */
export const MAX_ARRIVALS = 1_000_000;
/**
 * Splits waiting in one executor (`maxQueued`'s maximum, and `maxLivePerTenant`'s): what fits in
 * Node's default heap (4 GB here) with room to spare, at about 1.1 KB a split in a run.
 */
export const MAX_QUEUED = 2_000_000;
/**
 * Splits a whole workload may submit over its run: the sum over classes of jobs × splits per job
 * (its work; what it holds at once is `maxQueued`'s to bound).
 */
export const MAX_WORKLOAD_SPLITS = 10_000_000;
/** Arrivals per second of one class (`arrival.rate`; `everyMs` at its minimum gives the same). */
export const MAX_ARRIVAL_RATE = 1_000_000;
/** Job classes in a workload, and specs in a Trino simulation (the span rings name at most 1024). */
export const MAX_CLASSES = 1024;
/** Steps of a Trino timeline. */
export const MAX_TIMELINE_STEPS = 100_000;
/** Splits a Trino simulation keeps outstanding at once (concurrent tasks × splits each). */
export const MAX_TRINO_OUTSTANDING = 100_000;
/** Nodes of one graph, and of all the graphs of one workload together (2^20). */
export const MAX_GRAPH_NODES = 1 << 20;
/** Edges of one graph (4 per node on average at the node limit). */
export const MAX_GRAPH_EDGES = 4 * MAX_GRAPH_NODES;

/** The highest TCP port a console or `serve --port` may listen on (0 picks a free one). */
export const MAX_PORT = 65_535;

/**
 * Configs one `schedlab compare` runs (`--policy` and `--config` together): each is a whole
 * simulated run and a column of the table, and 3,000 ran for 40 s into a table no one can read.
 * The app's Compare view takes 4 (protocol.ts), the width of its table.
 */
export const MAX_COMPARE_CONFIGS = 16;

/**
 * The largest seed (workloads, graph generators, `--seed`, `setBackend`, `compare`): the PRNG
 * takes 32 bits (shared/lib/rng.ts), so 2^32 drew the same run as 0.
 */
export const MAX_SEED = 0xffff_ffff;
