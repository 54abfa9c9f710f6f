// The fan-out scenario of npm run bench: N SSE subscribers of `activityAdded` on one key and
// project, one gateway process. What one subscription costs the gateway in RSS (idle, after all
// are open), and the time from a write through the gateway to each subscriber's event: p50, p99
// and the last. Beside it the floor: a bare node:http server holding as many SSE responses. The subscribers are raw HTTP requests (as graphql-sse's distinct-connections mode
// sends them), so that the bench process itself stays light.
import { Agent, request } from 'node:http';
import { settle } from '../support/wait.ts';
import { LISTENING, rssBytes, start, stopProcesses } from './processes.ts';

export const SUBSCRIPTION = JSON.stringify({
  query: 'subscription { activityAdded(projectId: "1") { id activity scope itemId } }',
});
export const WRITE = JSON.stringify({
  query:
    'mutation { createDestinationConfig(input: { projectId: "1", plugin: 1, order: 99, name: "fan-out" }) { destinationConfig { databaseId } } }',
});
export const KEY = 'Bearer phx_full';

export interface FanOutFigures {
  /** `floor` (sse-floor.mjs) or `gateway`. */
  contender: string;
  subscribers: number;
  rssPerSubscriptionKb: number;
  writeToEventP50Ms: number;
  writeToEventP99Ms: number;
  writeToLastEventMs: number;
  delivered: number;
  /** Subscriptions refused (a coded error instead of a stream): none where the cap fits them. */
  refused?: number;
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

/** Opens one SSE subscription; resolves when its headers arrive; `onEvent` at its first `next`. */
function subscribe(url: string, agent: Agent, onEvent: () => void): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: KEY },
    });
    let seen = false;
    req.on('response', (res) => {
      if (res.statusCode !== 200) return reject(new Error(`subscription answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (!seen && chunk.includes('event: next')) {
          seen = true;
          onEvent();
        }
      });
      res.on('error', () => {});
      resolve(() => req.destroy());
    });
    req.on('error', (error) => (seen ? undefined : reject(error)));
    req.end(SUBSCRIPTION);
  });
}

/** The server under test: its subscription URL and its process (whose RSS is measured). */
interface FanOutServer {
  url: string;
  pid: number;
}

/** Opens the subscriptions, then writes once; what they cost the server and when each heard. */
async function fanOut(contender: string, server: FanOutServer, subscribers: number): Promise<FanOutFigures> {
  const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  try {
    await settle(2_000);
    const before = rssBytes(server.pid);
    const arrivals: number[] = [];
    let writtenAt = 0;
    const closers: (() => void)[] = [];
    for (let opened = 0; opened < subscribers; opened += 200) {
      const batch = Math.min(200, subscribers - opened);
      const more = await Promise.all(
        Array.from({ length: batch }, () =>
          subscribe(server.url, agent, () => arrivals.push(performance.now() - writtenAt)),
        ),
      );
      closers.push(...more);
    }
    await settle(3_000);
    const after = rssBytes(server.pid);
    writtenAt = performance.now();
    const write = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: KEY },
      body: WRITE,
    });
    if (!write.ok) throw new Error(`the write answered ${write.status}`);
    for (let waited = 0; waited < 60_000 && arrivals.length < subscribers; waited += 50) await settle(50);
    for (const close of closers) close();
    const sorted = [...arrivals].sort((a, b) => a - b);
    return {
      contender,
      subscribers,
      rssPerSubscriptionKb: (after - before) / 1024 / subscribers,
      writeToEventP50Ms: percentile(sorted, 0.5),
      writeToEventP99Ms: percentile(sorted, 0.99),
      writeToLastEventMs: sorted.at(-1) ?? Number.NaN,
      delivered: arrivals.length,
    };
  } finally {
    agent.destroy();
  }
}

/**
 * The floor: a bare node:http server holding the same SSE responses, which writes one event to
 * each when it is written to (sse-floor.mjs). What N open event streams cost Node itself.
 */
export async function measureFanOutFloor(subscribers: number): Promise<FanOutFigures> {
  const floor = await start('floor (fan-out)', ['test/bench/sse-floor.mjs'], {}, LISTENING);
  try {
    return await fanOut('floor', { url: floor.url, pid: floor.child.pid! }, subscribers);
  } finally {
    await stopProcesses([floor.child]);
  }
}

/** One fan-out of `subscribers` subscriptions against a fresh upstream and gateway. */
export async function measureFanOut(subscribers: number, gatewayPattern: RegExp): Promise<FanOutFigures> {
  const upstream = await start(
    'upstream (fan-out)',
    ['posthog-emulator/dist/cli.js', '--port', '0'],
    {},
    LISTENING,
  );
  const gateway = await start(
    'gateway (fan-out)',
    ['dist/main.js'],
    {
      UPSTREAM_URL: upstream.url,
      GRAPHIQL: 'false',
      LOG_LEVEL: 'warn',
      ACTIVITY_POLL_MS: '60000',
      MAX_SUBSCRIPTIONS: String(subscribers + 100),
      // Room for the write besides the subscribers' connections (10,000 by default).
      MAX_CONNECTIONS: String(subscribers + 100),
      MAX_SUBSCRIPTIONS_PER_KEY: String(subscribers),
      UPSTREAM_BUDGET_PER_MINUTE: '0',
      UPSTREAM_BUDGET_PER_HOUR: '0',
    },
    gatewayPattern,
  );
  try {
    return await fanOut('gateway', { url: gateway.url, pid: gateway.child.pid! }, subscribers);
  } finally {
    await stopProcesses([gateway.child, upstream.child]);
  }
}

export function fanOutRows(figures: FanOutFigures[]): string[] {
  return [
    '| fan-out: SSE subscribers | contender | RSS KB per subscription | write → event p50 ms | p99 ms | last ms | delivered | refused |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
    ...figures.map(
      (f) =>
        `| ${f.subscribers} | ${f.contender} | ${f.rssPerSubscriptionKb.toFixed(1)} | ${f.writeToEventP50Ms.toFixed(0)} | ${f.writeToEventP99Ms.toFixed(0)} | ${f.writeToLastEventMs.toFixed(0)} | ${f.delivered} | ${f.refused ?? 0} |`,
    ),
  ];
}
