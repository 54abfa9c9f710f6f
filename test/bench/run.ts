// npm run bench [-- --quick] [-- --no-rivals]: the gateway side by side with a floor (a bare
// node:http + undici hop making the same upstream GETs, no GraphQL), a bare yoga server (yoga +
// graphql-jit, hand-written resolvers) and two rivals: Apollo Server 5 with RESTDataSource over the
// same resolvers, and GraphQL Mesh over an OpenAPI description of the upstream (both installed on
// first use under test/bench/rivals/, apart from the gateway's dependencies), under the same load,
// against the same reference upstream: in the spec dialect, and in today's PostHog's
// (posthog-2026) for the scenarios that need hog functions. Each contender (those; the gateway as
// `npm start` runs it, traced, with 2 workers, sharing state through a Redis with 1, 2 and 4
// workers behind its port; the gateway and bare yoga both again with a larger young generation)
// runs in its own process; this one is the load generator (autocannon).
//
// Per scenario and contender: req/s, p50/p99 latency, CPU µs per operation (user + system time
// of the contender's process from /proc/<pid>/stat around the timed window, over the operations
// completed), its peak RSS during the window, both also as a ratio to bare yoga run the same
// way, and upstream calls per operation (the reference
// upstream's request log). A measurement, not a test: nothing here asserts. Prints a markdown
// table; writes the figures as JSON under bench-results/ (git-ignored).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RedisServer } from '../shared-state/processes.ts';
import { CONNECTIONS, check, control, type Figures, measure, runningIn } from './measure.ts';
import { type Process, ROOT, rssBytes, start, stopProcesses } from './processes.ts';
import { type BenchDialect, MESH, SCENARIOS, type Scenario } from './scenarios.ts';

const QUICK = process.argv.includes('--quick');
/** `--only <text>`: just the scenarios whose name contains it. */
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
/** `--no-rivals`: leave Apollo and Mesh out (no install). */
const RIVALS = !process.argv.includes('--no-rivals');
const ROUNDS = QUICK ? 1 : 2;
const SECONDS = QUICK ? 2 : 10;
/**
 * The V8 setting docs/operating.md (Deploying) offers for trading memory for CPU: a young generation of
 * 32 MB semi-spaces instead of 16. The gateway runs with and without it, and so does bare yoga,
 * so that each is compared with the stack run the same way.
 */
const LARGER_YOUNG_GENERATION = '--max-semi-space-size=32';
const GATEWAY_LARGER_YOUNG = `gateway, ${LARGER_YOUNG_GENERATION}`;
const BARE_YOGA_LARGER_YOUNG = `bare yoga, ${LARGER_YOUNG_GENERATION}`;
/** The bare yoga server each contender's ratios are taken against: the one run the same way. */
const bareYogaFor = (contender: string) =>
  contender === GATEWAY_LARGER_YOUNG ? BARE_YOGA_LARGER_YOUNG : 'bare yoga';
/** The rivals' own dependencies (test/bench/rivals/package-lock.json), installed once. */
function installRivals() {
  if (existsSync(`${ROOT}test/bench/rivals/node_modules`)) return;
  console.log('installing the rivals (test/bench/rivals) …');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: `${ROOT}test/bench/rivals`,
    stdio: 'inherit',
  });
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

interface Result {
  scenario: string;
  contender: string;
  figures: Figures;
}

interface Idle {
  startMs: number;
  idleRssMb: number;
}

/**
 * The gateway's own settings in the bench: a per-key upstream budget far above the load, so its
 * counting is measured without ever refusing a call (PostHog's 480 a minute would refuse most).
 */
const GATEWAY_ENV = {
  GRAPHIQL: 'false',
  UPSTREAM_BUDGET_PER_MINUTE: '1000000',
  UPSTREAM_BUDGET_PER_HOUR: '10000000',
};

/** A Redis for the gateways that share state (REDIS_URL), when Debian's redis-server is here. */
async function startRedis(): Promise<RedisServer | null> {
  try {
    execFileSync('redis-server', ['--version']);
  } catch {
    console.log('redis-server not found: the REDIS_URL contenders sit out');
    return null;
  }
  return RedisServer.start();
}

/** The gateway sharing state through Redis: one process, and 1, 2 and 4 workers behind one port. */
async function startRedisContenders(env: Record<string, string>, redisUrl: string | null) {
  if (!redisUrl) return [];
  const shared = { ...env, ...GATEWAY_ENV, REDIS_URL: redisUrl };
  const gatewayUrl = /GraphiQL at (http:\/\/[^\s,]+)/;
  return [
    await start('gateway, REDIS_URL', ['dist/main.js'], shared, gatewayUrl),
    await start('gateway, REDIS_URL, 2 workers', ['dist/main.js'], { ...shared, WORKERS: '2' }, gatewayUrl),
    await start('gateway, REDIS_URL, 4 workers', ['dist/main.js'], { ...shared, WORKERS: '4' }, gatewayUrl),
  ];
}

/**
 * Every contender, in front of the upstream `env` names, one after another; Mesh only when it has
 * a scenario to run.
 */
async function startContenders(
  env: Record<string, string>,
  withMesh: boolean,
  redisUrl: string | null,
): Promise<Process[]> {
  // Where the traced gateway exports its spans: a sink that reads and drops them.
  const otlpSink = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => otlpSink.listen(0, '127.0.0.1', resolve));
  const otlpEndpoint = `http://127.0.0.1:${(otlpSink.address() as AddressInfo).port}`;
  return [
    await start('floor', ['test/bench/floor.mjs'], env, /listening on (http:\/\/\S+)/),
    await start('bare yoga', ['test/bench/bare-yoga.mjs'], env, /listening on (http:\/\/\S+)/),
    await start(
      BARE_YOGA_LARGER_YOUNG,
      [LARGER_YOUNG_GENERATION, 'test/bench/bare-yoga.mjs'],
      env,
      /listening on (http:\/\/\S+)/,
    ),
    ...(RIVALS
      ? [
          await start(
            'Apollo + RESTDataSource',
            ['test/bench/rivals/apollo.mjs'],
            env,
            /listening on (http:\/\/\S+)/,
          ),
          // Composes its supergraph from the OpenAPI description as it starts.
          ...(withMesh
            ? [await start(MESH, ['test/bench/rivals/mesh.mjs'], env, /listening on (http:\/\/\S+)/)]
            : []),
        ]
      : []),
    // As `npm start` runs it: metrics on (the default), tracing off.
    await start('gateway', ['dist/main.js'], { ...env, ...GATEWAY_ENV }, /GraphiQL at (http:\/\/[^\s,]+)/),
    await start(
      GATEWAY_LARGER_YOUNG,
      [LARGER_YOUNG_GENERATION, 'dist/main.js'],
      { ...env, ...GATEWAY_ENV },
      /GraphiQL at (http:\/\/[^\s,]+)/,
    ),
    // What tracing costs: every operation and upstream attempt a span, exported over OTLP/HTTP.
    await start(
      'gateway, traced',
      ['dist/main.js'],
      { ...env, ...GATEWAY_ENV, OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint },
      /GraphiQL at (http:\/\/[^\s,]+)/,
    ),
    // Its CPU and RSS are those of the supervisor and both workers together.
    await start(
      'gateway, 2 workers',
      ['dist/main.js'],
      { ...env, ...GATEWAY_ENV, WORKERS: '2' },
      /GraphiQL at (http:\/\/[^\s,]+)/,
    ),
    ...(await startRedisContenders(env, redisUrl)),
  ];
}

/** The table on stdout and the figures as JSON under bench-results/. */
function report(scenarios: Scenario[], results: Result[], idle: Record<string, Idle>): void {
  const rows = [
    '| scenario | contender | req/s | p50 ms | p99 ms | cpu µs/op | × floor | × bare yoga | peak RSS MB | RSS × bare yoga | upstream calls/op | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const scenario of scenarios) {
    const of = (name: string) =>
      results.find((r) => r.scenario === scenario.name && r.contender === name)!.figures;
    for (const { contender } of results.filter((r) => r.scenario === scenario.name)) {
      const f = of(contender);
      const bare = of(bareYogaFor(contender));
      rows.push(
        `| ${scenario.name} | ${contender} | ${f.requestsPerSecond.toFixed(0)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.cpuMicrosPerOp.toFixed(0)} | ${(f.cpuMicrosPerOp / of('floor').cpuMicrosPerOp).toFixed(2)} | ${(f.cpuMicrosPerOp / bare.cpuMicrosPerOp).toFixed(2)} | ${f.peakRssMb.toFixed(0)} | ${(f.peakRssMb / bare.peakRssMb).toFixed(2)} | ${f.upstreamCallsPerOp.toFixed(2)} | ${f.errors} |`,
      );
    }
  }
  rows.push('', '| contender | start to first answer ms | idle RSS MB |', '|---|---:|---:|');
  for (const [name, i] of Object.entries(idle))
    rows.push(`| ${name} | ${i.startMs.toFixed(0)} | ${i.idleRssMb.toFixed(0)} |`);
  const table = rows.join('\n');
  console.log(
    `\n${ROUNDS} round(s) × ${SECONDS} s, ${CONNECTIONS} connections, Node ${process.version}\n\n${table}`,
  );
  mkdirSync(`${ROOT}bench-results`, { recursive: true });
  const file = `${ROOT}bench-results/${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  writeFileSync(
    file,
    JSON.stringify({ rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, idle, results }, null, 2),
  );
  console.log(`\nfigures: ${file}`);
}

/** Start to first answer and idle RSS of each contender, before any load. */
async function measureIdle(contenders: Process[], scenario: Scenario, upstreamUrl: string) {
  const idle: Record<string, Idle> = {};
  for (const c of contenders) {
    const asked = performance.now();
    await check(c, scenario, upstreamUrl, false);
    const startMs = c.startMs + (performance.now() - asked);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    idle[c.name] = { startMs, idleRssMb: rssBytes(c.child.pid!) / 1024 / 1024 };
  }
  return idle;
}

/** Each scenario, each contender that runs it, ROUNDS rounds taken in turn; the rounds' mean. */
async function measureScenarios(scenarios: Scenario[], contenders: Process[], upstreamUrl: string) {
  const results: Result[] = [];
  for (const scenario of scenarios) {
    await control(upstreamUrl, 'PUT', 'latency', { latencyMs: scenario.latencyMs, jitterMs: 0 });
    const running = runningIn(contenders, scenario);
    const callsPerOp: Record<string, number> = {};
    for (const c of running) callsPerOp[c.name] = await check(c, scenario, upstreamUrl);
    const rounds: Record<string, Figures[]> = Object.fromEntries(running.map((c) => [c.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of running) {
        rounds[c.name]!.push({ ...(await measure(c, scenario)), upstreamCallsPerOp: callsPerOp[c.name]! });
      }
    }
    for (const c of running) {
      const all = rounds[c.name]!;
      const figures = Object.fromEntries(
        Object.keys(all[0]!).map((k) => [k, mean(all.map((f) => f[k as keyof Figures]))]),
      ) as unknown as Figures;
      figures.peakRssMb = Math.max(...all.map((f) => f.peakRssMb));
      results.push({ scenario: scenario.name, contender: c.name, figures });
    }
    console.error(`measured: ${scenario.name}`);
  }
  return results;
}

/**
 * The scenarios of each dialect against a reference upstream answering in it, in front of which
 * every contender starts afresh (a contender's upstream is fixed when it starts).
 */
async function main() {
  console.log('building dist/ …');
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (RIVALS) installRivals();
  const scenarios = SCENARIOS.filter((s) => !ONLY || s.name.includes(ONLY));
  const dialectOf = (s: Scenario): BenchDialect => s.dialect ?? 'spec';
  const redis = await startRedis();
  const redisUrl = redis?.url ?? null;
  const results: Result[] = [];
  let idle: Record<string, Idle> | undefined;
  for (const dialect of new Set(scenarios.map(dialectOf))) {
    const group = scenarios.filter((s) => dialectOf(s) === dialect);
    const upstream = await start(
      `upstream (${dialect})`,
      ['dist/reference-upstream/cli.js', '--port', '0', '--dialect', dialect],
      {},
      /listening on (http:\/\/\S+)/,
    );
    const withMesh = RIVALS && group.some((s) => s.meshQuery !== undefined);
    const contenders = await startContenders({ UPSTREAM_URL: upstream.url }, withMesh, redisUrl);
    // Start-up and idle memory are the same whatever the dialect: taken once.
    idle ??= await measureIdle(contenders, group[0]!, upstream.url);
    results.push(...(await measureScenarios(group, contenders, upstream.url)));
    await stopProcesses([upstream.child, ...contenders.map((c) => c.child)]);
  }
  await redis?.stop();
  report(scenarios, results, idle ?? {});
}

await main();
await stopProcesses();
process.exit(0);
