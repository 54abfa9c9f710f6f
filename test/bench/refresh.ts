// npm run bench:refresh -- [--clients N] [--every S] [--seconds S] [--latency MS] [--ttl MS]: an admin
// page's refresh loop. N clients of one key ask for the combined view every S seconds, in front of
// the reference upstream (spec: the combined view reads important changes, which today's PostHog
// removed) answering after MS, once with the answer cache off and once
// with UPSTREAM_CACHE_TTL_MS=ttl. For each: upstream calls per refresh, p50 latency, and how many
// refreshes a minute fit the key's budget (PostHog's 480 a minute less the 10% reserve). A
// measurement, not a test: nothing here asserts. `npm run bench` runs it too (`--only refresh`).
import { execFileSync } from 'node:child_process';
import { control } from './measure.ts';
import { GATEWAY_ENV, GATEWAY_LISTENING, LISTENING, ROOT, start, stopProcesses } from './processes.ts';
import { COMBINED, KEY_OF } from './scenarios.ts';

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  const value = at < 0 ? fallback : Number(process.argv[at + 1]);
  if (!(value >= 0)) throw new Error(`--${name} takes a number`);
  return value;
};
const CLIENTS = option('clients', 5);
const EVERY_MS = option('every', 2) * 1000;
const SECONDS = option('seconds', 30);
const LATENCY_MS = option('latency', 100);
const TTL_MS = option('ttl', 5000);
/** What interactive calls of one key may spend a minute: 480 less the default reserve. */
const SPENDABLE_PER_MINUTE = 432;
const KEY = KEY_OF.spec;

interface Outcome {
  refreshes: number;
  errors: number;
  p50: number;
  upstreamCalls: number;
}

/** One client: the combined view every EVERY_MS until `until`, each answer's latency kept. */
async function refreshLoop(url: string, until: number, latencies: number[], failed: { count: number }) {
  while (Date.now() < until) {
    const started = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: KEY },
      body: JSON.stringify({ query: COMBINED }),
    });
    const body = (await response.json()) as { errors?: unknown[] };
    latencies.push(performance.now() - started);
    if (body.errors) failed.count++;
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
  }
}

async function run(upstreamUrl: string, ttlMs: number): Promise<Outcome> {
  const gateway = await start(
    `gateway, cache ${ttlMs ? `${ttlMs} ms` : 'off'}`,
    ['dist/main.js'],
    { ...GATEWAY_ENV, UPSTREAM_URL: upstreamUrl, UPSTREAM_CACHE_TTL_MS: String(ttlMs) },
    GATEWAY_LISTENING,
  );
  await control(upstreamUrl, 'DELETE', 'requests');
  const latencies: number[] = [];
  const failed = { count: 0 };
  const until = Date.now() + SECONDS * 1000;
  // The clients start spread over one interval, as pages opened at different moments.
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, (EVERY_MS * i) / CLIENTS));
      await refreshLoop(gateway.url, until, latencies, failed);
    }),
  );
  const upstreamCalls = ((await control(upstreamUrl, 'GET', 'requests')) as unknown[]).length;
  gateway.child.kill('SIGTERM');
  latencies.sort((a, b) => a - b);
  return {
    refreshes: latencies.length,
    errors: failed.count,
    p50: latencies[Math.floor(latencies.length / 2)] ?? 0,
    upstreamCalls,
  };
}

/**
 * The refresh loop against a reference upstream of its own, cache off then on: the table's rows
 * (`npm run bench` runs it after its scenarios; dist/ must be built).
 */
export async function measureRefresh(): Promise<string[]> {
  const upstream = await start(
    'upstream (refresh loop)',
    ['posthog-emulator/dist/cli.js', '--port', '0', '--dialect', 'spec'],
    {},
    LISTENING,
  );
  await control(upstream.url, 'PUT', 'latency', { latencyMs: LATENCY_MS, jitterMs: 0 });
  const outcomes = [
    ['off', await run(upstream.url, 0)],
    [`${TTL_MS} ms`, await run(upstream.url, TTL_MS)],
  ] as const;
  upstream.child.kill('SIGTERM');
  const rows = [
    `${CLIENTS} clients of one key, the combined view every ${EVERY_MS / 1000} s for ${SECONDS} s, upstream ${LATENCY_MS} ms (spec)`,
    '',
    '| cache | refreshes | errors | upstream calls/refresh | p50 ms | refreshes/min within the budget |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const [cache, o] of outcomes) {
    const perRefresh = o.upstreamCalls / Math.max(1, o.refreshes);
    const fit = perRefresh > 0 ? Math.floor(SPENDABLE_PER_MINUTE / perRefresh) : Number.POSITIVE_INFINITY;
    rows.push(
      `| ${cache} | ${o.refreshes} | ${o.errors} | ${perRefresh.toFixed(2)} | ${o.p50.toFixed(0)} | ${fit} |`,
    );
  }
  return rows;
}

// `npm run bench:refresh`: this part alone.
if (process.argv[1]?.endsWith('refresh.ts')) {
  execFileSync('npm', ['run', '-s', 'build', '--workspaces', '--include-workspace-root'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  console.log(`\n${(await measureRefresh()).join('\n')}`);
  await stopProcesses();
  process.exit(0);
}
