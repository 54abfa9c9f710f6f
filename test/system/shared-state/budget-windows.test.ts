// A key's upstream budget never admits more than its limits in any window, whatever the load:
// three processes spend one key's budget at once (budget-worker.ts), each recording every
// admission at the instant the budget counted it, and no 60 s (nor hour) of those instants may hold
// more than UPSTREAM_BUDGET_PER_MINUTE (PER_HOUR). Counted by the budget's own clock, not by when
// the upstream saw the calls, so the machine's speed cannot move a call from one window to another.
// The loads: event loops blocked for longer than a slice request may take (a loaded machine), a
// Redis slow to answer (not slow enough to be lost), and no Redis (each process keeps to its share).
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisServer, waitFor } from '../../support/redis-server.ts';
import { SlowRedisProxy } from '../../support/slow-redis-proxy.ts';

const PER_MINUTE = 10;
const PER_HOUR = 15;
/** Past a minute and the few seconds a slice is counted beyond it: the minute's window slides. */
const RUN_MS = 75_000;
const PROCESSES = 3;

/** The instants admitted by `PROCESSES` workers started together with `env`, in order. */
async function admissions(env: Record<string, string>): Promise<number[]> {
  // Time enough for each to start and connect first.
  const startAt = String(Date.now() + 5_000);
  const workers = Array.from({ length: PROCESSES }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/system/shared-state/budget-worker.ts'], {
      env: {
        PATH: process.env.PATH,
        PER_MINUTE: String(PER_MINUTE),
        PER_HOUR: String(PER_HOUR),
        PROCESSES: String(PROCESSES),
        RUN_MS: String(RUN_MS),
        START_AT: startAt,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [, list] = await waitFor(child, /admitted (\[[^\]]*\])/, 'budget worker');
    return JSON.parse(list!) as number[];
  });
  return (await Promise.all(workers)).flat().sort((a, b) => a - b);
}

/** The most instants any window of `windowMs` holds. */
function busiestWindow(instants: number[], windowMs: number): number {
  let most = 0;
  for (let first = 0, last = 0; last < instants.length; last++) {
    while (instants[last]! - instants[first]! >= windowMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

function expectWithinLimits(instants: number[]): void {
  expect(busiestWindow(instants, 60_000)).toBeLessThanOrEqual(PER_MINUTE);
  expect(busiestWindow(instants, 3_600_000)).toBeLessThanOrEqual(PER_HOUR);
  // The budget was spent, not merely never opened.
  expect(instants.length).toBeGreaterThanOrEqual(PER_MINUTE / PROCESSES);
}

describe.concurrent('one key’s budget spent by three processes at once, counted by its own clock', () => {
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const stop of stops) await stop();
  });

  it('through Redis, their event loops blocked longer than a slice request may take', async () => {
    const redis = await RedisServer.start();
    stops.push(() => redis.stop());
    const instants = await admissions({ REDIS_URL: redis.url, STALL_MS: '700', STALL_EVERY_MS: '300' });
    expectWithinLimits(instants);
  }, 120_000);

  it('through a Redis slow to answer, not slow enough to be lost', async () => {
    const redis = await RedisServer.start();
    const proxy = await SlowRedisProxy.start(redis.port);
    stops.push(
      () => proxy.close(),
      () => redis.stop(),
    );
    proxy.delayMs = 700;
    const instants = await admissions({ REDIS_URL: proxy.url });
    expectWithinLimits(instants);
  }, 120_000);

  it('without Redis, each process keeping to its share', async () => {
    expectWithinLimits(await admissions({}));
  }, 120_000);
});
