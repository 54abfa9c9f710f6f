// The fan-out scenario across processes: N SSE subscribers of `activityAdded` on one key and
// project, spread over WORKERS=2 (one port, the cluster's primary handing connections to the
// workers) or over two replicas sharing a Redis (the subscribers opened on each in turn, as a load
// balancer would), with MAX_SUBSCRIPTIONS_PER_KEY = N: every one must be held, and one write
// reach them all. RSS is summed over every process of the fleet (the workers and their primary;
// both replicas and Redis), before and after the subscribers, divided by N. The subscribers are
// held by forked processes (subscriber-host.mjs), at most PER_HOST each, so that no process
// needs N descriptors.
import { type ChildProcess, fork } from 'node:child_process';
import { RedisServer } from '../support/redis-server.ts';
import { settle } from '../support/wait.ts';
import { type FanOutFigures, KEY, percentile, SUBSCRIPTION, WRITE } from './fan-out.ts';
import {
  GATEWAY_LISTENING,
  LISTENING,
  ROOT,
  rssBytes,
  spawned,
  start,
  stopProcesses,
  sum,
} from './processes.ts';

const PER_HOST = 8_000;
/** How long the write's event may take to reach them all before the run gives up counting. */
const DELIVERY_WITHIN_MS = 120_000;

interface HostAnswer {
  opened?: number;
  failed?: number;
  arrivals?: number[];
  refused?: number;
}

function startHost() {
  const child: ChildProcess = fork(`${ROOT}test/bench/subscriber-host.mjs`, [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  spawned.push(child);
  const ask = (message: unknown) =>
    new Promise<HostAnswer>((resolve) => {
      child.once('message', (answer) => resolve(answer as HostAnswer));
      child.send(message as object);
    });
  return { child, ask };
}

/** The gateway's settings for N subscribers of one key, whatever share of them one process holds. */
const fleetEnv = (subscribers: number): Record<string, string> => ({
  GRAPHIQL: 'false',
  LOG_LEVEL: 'warn',
  ACTIVITY_POLL_MS: '60000',
  MAX_SUBSCRIPTIONS: String(subscribers + 100),
  MAX_CONNECTIONS: String(subscribers + 100),
  MAX_SUBSCRIPTIONS_PER_KEY: String(subscribers),
  UPSTREAM_BUDGET_PER_MINUTE: '0',
  UPSTREAM_BUDGET_PER_HOUR: '0',
});

/** Opens the subscribers over `urls`, then writes once through the first. */
async function fanOutAcross(
  contender: string,
  urls: string[],
  pids: number[],
  subscribers: number,
): Promise<FanOutFigures> {
  const hosts = Array.from({ length: Math.ceil(subscribers / PER_HOST) }, startHost);
  try {
    await settle(2_000);
    const rss = () => sum(pids.map(rssBytes));
    const before = rss();
    const share = Math.ceil(subscribers / hosts.length);
    const opened = await Promise.all(
      hosts.map((host, i) =>
        host.ask({
          open: { urls, count: Math.min(share, subscribers - i * share), key: KEY, body: SUBSCRIPTION },
        }),
      ),
    );
    const failed = sum(opened.map((o) => o.failed ?? 0));
    if (failed > 0) console.error(`${contender}: ${failed} subscriptions failed to open`);
    await settle(3_000);
    const after = rss();
    const writtenAt = performance.timeOrigin + performance.now();
    const write = await fetch(urls[0]!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: KEY },
      body: WRITE,
    });
    if (!write.ok) throw new Error(`the write answered ${write.status}`);
    const report = async () => {
      const answers = await Promise.all(hosts.map((h) => h.ask({ report: true })));
      return {
        arrivals: answers.flatMap((a) => a.arrivals ?? []),
        refused: sum(answers.map((a) => a.refused ?? 0)),
      };
    };
    let seen = await report();
    for (let waited = 0; waited < DELIVERY_WITHIN_MS; waited += 500) {
      if (seen.arrivals.length + seen.refused >= subscribers) break;
      await settle(500);
      seen = await report();
    }
    const sorted = seen.arrivals.map((at) => at - writtenAt).sort((a, b) => a - b);
    return {
      contender,
      subscribers,
      rssPerSubscriptionKb: (after - before) / 1024 / subscribers,
      writeToEventP50Ms: percentile(sorted, 0.5),
      writeToEventP99Ms: percentile(sorted, 0.99),
      writeToLastEventMs: sorted.at(-1) ?? Number.NaN,
      delivered: sorted.length,
      refused: seen.refused + failed,
    };
  } finally {
    for (const host of hosts) if (host.child.connected) host.child.send({ close: true });
  }
}

const startUpstream = () =>
  start('upstream (fan-out)', ['posthog-emulator/dist/cli.js', '--port', '0'], {}, LISTENING);

/** N subscribers over one gateway of WORKERS=2, without Redis. */
export async function measureFanOutWorkers(subscribers: number): Promise<FanOutFigures> {
  const upstream = await startUpstream();
  const gateway = await start(
    'gateway (fan-out, 2 workers)',
    ['dist/main.js'],
    { UPSTREAM_URL: upstream.url, WORKERS: '2', ...fleetEnv(subscribers) },
    GATEWAY_LISTENING,
  );
  try {
    return await fanOutAcross('gateway, WORKERS=2', [gateway.url], [gateway.child.pid!], subscribers);
  } finally {
    await stopProcesses([gateway.child, upstream.child]);
  }
}

/** N subscribers over two gateways sharing a Redis, half opened on each. */
export async function measureFanOutReplicas(subscribers: number): Promise<FanOutFigures> {
  const redis = await RedisServer.start();
  const upstream = await startUpstream();
  const env = { UPSTREAM_URL: upstream.url, REDIS_URL: redis.url, ...fleetEnv(subscribers) };
  const replicas = [
    await start('gateway (fan-out, replica A)', ['dist/main.js'], env, GATEWAY_LISTENING),
    await start('gateway (fan-out, replica B)', ['dist/main.js'], env, GATEWAY_LISTENING),
  ];
  try {
    return await fanOutAcross(
      'gateway ×2, Redis',
      replicas.map((r) => r.url),
      [...replicas.map((r) => r.child.pid!), redis.pid!],
      subscribers,
    );
  } finally {
    await stopProcesses([...replicas.map((r) => r.child), upstream.child]);
    await redis.stop();
  }
}
