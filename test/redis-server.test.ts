import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { startTestRedis } from './redis-server.ts';

describe('the test Redis', () => {
  it('answers on loopback and keeps nothing once stopped and started again', async () => {
    const redis = await startTestRedis();
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1, lazyConnect: true });
    try {
      await client.connect();
      await client.set('schedlab:probe', '1');
      expect(await client.get('schedlab:probe')).toBe('1');
      if (process.env.REDIS_URL === undefined) {
        await redis.kill();
        await redis.restart();
        // ioredis reconnects by itself (its backoff grows while the server is down: seconds on a
        // loaded machine); the restarted server is empty (no persistence).
        await expect
          .poll(() => client.get('schedlab:probe').catch(() => 'down'), { timeout: 15_000 })
          .toBe(null);
      }
    } finally {
      client.disconnect();
      await redis.stop();
    }
  }, 30_000);
});
