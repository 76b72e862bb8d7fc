import { describe, expect, it } from 'vitest';
import { Session } from './session.ts';

describe('Session frames: events', () => {
  it('events the ring overwrote before a frame carried them are counted, not lost silently', () => {
    const s = new Session({ config: { workers: 2 }, executor: { eventCapacity: 8 } });
    for (let i = 0; i < 10; i++) {
      s.executor.pause();
      s.executor.resume();
    }
    const f = s.frame();
    expect(f.events).toHaveLength(8); // the 8 newest of 20
    expect(f.events.at(-1)).toMatchObject({ kind: 'resume' });
    expect(f.eventsDropped).toBe(12);
    // The count is cumulative; a frame that kept up adds nothing.
    s.executor.pause();
    const g = s.frame();
    expect(g.events.map((e) => e.kind)).toEqual(['pause']);
    expect(g.eventsDropped).toBe(12);
    for (let i = 0; i < 5; i++) {
      s.executor.resume();
      s.executor.pause();
    }
    expect(s.frame()).toMatchObject({ eventsDropped: 14, events: { length: 8 } });
  });
});
