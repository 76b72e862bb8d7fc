/**
 * The engine's answers behind the job table and the job detail (docs/jobs.md): `findJobs` for a
 * search, `jobDetail` for the selected job. Each asks again every second while it applies (a
 * search that is not empty, a job still running), so rows and timelines follow the engine
 * without the frames carrying them; a new question cancels the old one's late answer.
 */
import { useEffect, useState } from 'react';
import type { FindJobsResult, JobDetail } from '../../../shared/protocol.ts';
import { useApp } from '../context.ts';

/** Rows a search asks for (the table shows them all, sorted as the user likes). */
export const SEARCH_LIMIT = 200;
const REFRESH_MS = 1000;
/** Typing pauses this long before a search is sent. */
const DEBOUNCE_MS = 200;

/** Errors the same question would get again: asking once more cannot help. */
const FINAL_CODES = new Set(['INVALID_ARGUMENT', 'BAD_MESSAGE', 'UNKNOWN_ID', 'UNKNOWN_COMMAND']);

export interface Answer<T> {
  value: T | null;
  error: string | null;
}

export function useJobSearch(query: string): Answer<FindJobsResult> {
  const { transport } = useApp();
  const [answer, setAnswer] = useState<Answer<FindJobsResult>>({ value: null, error: null });
  useEffect(() => {
    if (query.trim() === '') {
      setAnswer({ value: null, error: null });
      return;
    }
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      const r = await transport.send({ type: 'findJobs', query, limit: SEARCH_LIMIT });
      if (!alive) return;
      setAnswer(r.ok ? { value: r, error: null } : { value: null, error: r.error.message });
      // A lost or late answer (a busy engine, a reconnect) is asked again; a bad query is not.
      if (r.ok || !FINAL_CODES.has(r.error.code)) timer = setTimeout(() => void ask(), REFRESH_MS);
    };
    timer = setTimeout(() => void ask(), DEBOUNCE_MS);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [query, transport]);
  return answer;
}

export function useJobDetail(jobId: number | null): Answer<JobDetail> {
  const { transport } = useApp();
  const [answer, setAnswer] = useState<Answer<JobDetail>>({ value: null, error: null });
  useEffect(() => {
    setAnswer({ value: null, error: null });
    if (jobId === null) return;
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      const r = await transport.send({ type: 'jobDetail', jobId });
      if (!alive) return;
      if (!r.ok) {
        setAnswer({ value: null, error: r.error.message });
        if (!FINAL_CODES.has(r.error.code)) timer = setTimeout(() => void ask(), REFRESH_MS);
        return;
      }
      setAnswer({ value: r, error: null });
      if (r.job.state === 'running' || r.job.state === 'queued')
        timer = setTimeout(() => void ask(), REFRESH_MS);
    };
    void ask();
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [jobId, transport]);
  return answer;
}
