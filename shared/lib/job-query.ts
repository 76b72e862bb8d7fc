/**
 * The job search language of the `findJobs` command and the app's search box (one definition,
 * docs/jobs.md "Finding jobs"). Terms are separated by spaces and all must match:
 *
 *   `123` or `id:123`          the job with that id
 *   `queued`, `state:failed`   jobs in that state (`queued`: live, no split has started yet;
 *                              `running`: live, one has)
 *   `class:scan`               class contains `scan` (case-insensitive)
 *   `tenant:acme`              tenant contains `acme` (case-insensitive)
 *   `scan`                     class or tenant contains `scan`
 *
 * A term of an unknown key (`colour:red`) or an unknown state is an error naming the term.
 */

export const JOB_STATE_NAMES = [
  'queued',
  'running',
  'succeeded',
  'failed',
  'cancelled',
  'rejected',
] as const;
export type JobStateName = (typeof JOB_STATE_NAMES)[number];

/** Longest query text (characters). */
export const JOB_QUERY_MAX_CHARS = 200;

export interface JobQuery {
  id?: number;
  state?: JobStateName;
  /**
   * Two terms no job can both match (`id:1 id:2`, `queued state:running`): every term must
   * match, so nothing does. The later term used to replace the earlier one.
   */
  none?: true;
  /** Lower-case substrings: every one must be in the class. */
  class: string[];
  tenant: string[];
  /** Lower-case substrings each in the class or the tenant. */
  any: string[];
}

/** What a job offers to a query. */
export interface JobFields {
  id: number;
  state: string;
  class: string;
  tenant?: string | undefined;
}

const KEYS = ['id', 'state', 'class', 'tenant'] as const;

/** Parses a query; throws an `Error` whose message names the bad term. Empty text matches all. */
export function parseJobQuery(text: string): JobQuery {
  const q: JobQuery = { class: [], tenant: [], any: [] };
  for (const term of text.trim().split(/\s+/)) {
    if (term === '') continue;
    const colon = term.indexOf(':');
    const key = colon < 0 ? null : term.slice(0, colon).toLowerCase();
    const value = colon < 0 ? term : term.slice(colon + 1);
    if (key !== null && !(KEYS as readonly string[]).includes(key)) {
      throw new Error(`'${term}': no key '${key}' (known: ${KEYS.join(', ')})`);
    }
    if (value === '') throw new Error(`'${term}': a value must follow '${key}:'`);
    const lower = value.toLowerCase();
    if (key === 'id' || (key === null && /^\d+$/.test(value))) {
      if (!/^\d+$/.test(value)) throw new Error(`'${term}': an id is a whole number`);
      if (q.id !== undefined && q.id !== Number(value)) q.none = true;
      q.id = Number(value);
    } else if (key === 'state' || (key === null && isState(lower))) {
      if (!isState(lower)) {
        throw new Error(`'${term}': no state '${value}' (known: ${JOB_STATE_NAMES.join(', ')})`);
      }
      if (q.state !== undefined && q.state !== lower) q.none = true;
      q.state = lower;
    } else if (key === 'class') q.class.push(lower);
    else if (key === 'tenant') q.tenant.push(lower);
    else q.any.push(lower);
  }
  return q;
}

function isState(s: string): s is JobStateName {
  return (JOB_STATE_NAMES as readonly string[]).includes(s);
}

export function matchesJob(q: JobQuery, job: JobFields): boolean {
  if (q.none === true) return false;
  if (q.id !== undefined && job.id !== q.id) return false;
  if (q.state !== undefined && job.state !== q.state) return false;
  const cls = job.class.toLowerCase();
  const tenant = (job.tenant ?? '').toLowerCase();
  for (const s of q.class) if (!cls.includes(s)) return false;
  for (const s of q.tenant) if (!tenant.includes(s)) return false;
  for (const s of q.any) if (!cls.includes(s) && !tenant.includes(s)) return false;
  return true;
}
