// One process spending one key's upstream budget as fast as the budget lets it, for
// budget-windows.test.ts: LOOPS callers ask for admission until RUN_MS has passed, and the process
// prints, as its last line, each admission's instant as the budget counted it (its onAdmitted
// hook). With REDIS_URL the budget is shared through Redis as the gateway shares it; without, the
// process keeps to its share (÷ PROCESSES), as the workers of WORKERS > 1 do. STALL_MS blocks the
// event loop that long every STALL_EVERY_MS, between two turns of its I/O (where a loaded gateway
// spends its time: answering requests), as a loaded machine does to a gateway's process.
import { hashKey } from '../../../src/core/caller-key.ts';
import { connectRedis } from '../../../src/shared-state/index.ts';
import { SharedBudget } from '../../../src/shared-state/shared-budget.ts';
import { KeyBudget } from '../../../src/upstream/keys/budget.ts';
import { RequestSignal } from '../../../src/upstream/request-signal.ts';

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const KEY = hashKey('Bearer phx_budget_worker');

const budget = new KeyBudget(
  { perMinute: setting('PER_MINUTE', 10), perHour: setting('PER_HOUR', 0) },
  setting('PROCESSES', 1),
);
const admitted: number[] = [];
budget.onAdmitted((_key, at) => admitted.push(at));

const redisUrl = process.env.REDIS_URL;
const redis = redisUrl
  ? await connectRedis({ url: redisUrl, label: redisUrl, keyPrefix: 'worker:', requiredForReady: false })
  : null;
if (redis) {
  const shared = new SharedBudget(redis);
  budget.shareThrough(shared);
  await shared.listen(budget);
}
// The processes start together, at START_AT.
await new Promise((started) => setTimeout(started, setting('START_AT', 0) - Date.now()));
const end = Date.now() + setting('RUN_MS', 5_000);
// A worker that cannot finish says so and ends, rather than outlive its test.
setTimeout(() => {
  console.error('budget worker: no end 30 s after its run');
  process.exit(1);
}, setting('RUN_MS', 5_000) + 30_000).unref();
const stallMs = setting('STALL_MS', 0);
const stalls = stallMs
  ? setInterval(
      () =>
        setImmediate(() => {
          const until = Date.now() + stallMs;
          while (Date.now() < until);
        }),
      setting('STALL_EVERY_MS', 200),
    )
  : null;

async function caller(): Promise<void> {
  const signal = new RequestSignal();
  while (Date.now() < end) {
    try {
      const counted = budget.admit(KEY, end, signal);
      if (counted instanceof Promise) await counted;
    } catch {
      // RATE_LIMITED: no room before the run ends.
      return;
    }
  }
}

await Promise.all(Array.from({ length: setting('LOOPS', 4) }, caller));
if (stalls) clearInterval(stalls);
await redis?.close();
console.log(`admitted ${JSON.stringify(admitted)}`);
process.exit(0);
