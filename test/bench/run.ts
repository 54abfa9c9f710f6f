// npm run bench [-- --quick] [-- --no-rivals] [-- --only <text>] [-- --fan-out 2000,10000]
// [-- --fan-out-fleet 20000]: the gateway side by side with
// a floor (a bare node:http + undici hop making the same upstream GETs, no GraphQL), a bare yoga
// server (yoga + graphql-jit, hand-written resolvers) and three rivals: Apollo Server 5 with
// RESTDataSource over the same resolvers, GraphQL Mesh over an OpenAPI description of the
// upstream, and Tailcall over a configuration of the same REST shapes (all installed on first use
// under test/bench/rivals/, apart from the gateway's dependencies), under the same load, against the reference upstream in each of its dialects:
// the interface document's (spec), PostHog's as of mid-2024 (posthog: `config` an object, a page
// of 100 configs 41 KB) and today's PostHog's (posthog-2026), each scenario in those whose
// upstream serves what it reads.
//
// In the spec dialect every contender runs: those; the gateway as `npm start` runs it, traced,
// with 2 workers, sharing state through a Redis with 1, 2 and 4 workers behind its port; the
// gateway and bare yoga both again with a larger young generation. In PostHog's dialects the
// variants of the gateway sit out, and so do Mesh and Tailcall (their descriptions are the
// interface document's): the floor, bare yoga, Apollo and the gateway run there. Each contender runs in
// its own process; this one is the load generator (autocannon).
//
// Per scenario, dialect and contender: req/s, p50/p99 latency, CPU µs per operation (user +
// system time of the contender's process from /proc/<pid>/stat around the timed window, over the
// operations completed), its peak RSS during the window, both also as a ratio to bare yoga run
// the same way, and upstream calls per operation (the reference upstream's request log). A
// measurement, not a test: nothing here asserts. Prints a markdown table, then the gateway's
// ratios to bare yoga by scenario and dialect; writes the figures as JSON under bench-results/
// (git-ignored).
//
// Then the gateway alone with one key, a key per client and a key per request, and what it keeps
// per key after 10,000 and 20,000 keys (per-key.ts; `--only per-key` runs just that); then an admin
// page's refresh loop with the answer cache off and on (refresh.ts; `--only refresh`).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RedisServer } from '../support/redis-server.ts';
import { type FanOutFigures, fanOutRows, measureFanOut, measureFanOutFloor } from './fan-out.ts';
import { measureFanOutReplicas, measureFanOutWorkers } from './fan-out-fleet.ts';
import {
  CONNECTIONS,
  check,
  control,
  type Figures,
  mean,
  measure,
  ROUNDS,
  runningIn,
  SECONDS,
  WARM_UP_SECONDS,
} from './measure.ts';
import { measurePerKey, type PerKeyFigures, type PerKeyState, perKeyRows } from './per-key.ts';
import {
  GATEWAY_ENV,
  GATEWAY_LISTENING,
  LISTENING,
  type Process,
  ROOT,
  rssBytes,
  start,
  stopProcesses,
} from './processes.ts';
import { measureRefresh } from './refresh.ts';
import { type BenchDialect, DIALECTS, KEY_OF, MESH, SCENARIOS, type Scenario } from './scenarios.ts';
import { startTailcall, tailcallInstalled } from './tailcall.ts';

/** `--only <text>`: just the scenarios whose name contains it. */
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
/** `--no-rivals`: leave Apollo and Mesh out (no install). */
const RIVALS = !process.argv.includes('--no-rivals');
/** `--fan-out 2000,10000`: the subscriber counts of the fan-out scenario. */
const FAN_OUT = (
  process.argv.includes('--fan-out') ? process.argv[process.argv.indexOf('--fan-out') + 1]! : '2000,10000'
)
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
/** `--fan-out-fleet 20000`: the subscriber counts of the fan-out over WORKERS=2 and over two replicas. */
const FAN_OUT_FLEET = (
  process.argv.includes('--fan-out-fleet')
    ? process.argv[process.argv.indexOf('--fan-out-fleet') + 1]!
    : '20000'
)
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
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

interface Result {
  scenario: string;
  dialect: BenchDialect;
  contender: string;
  /** The rounds' mean; the peak RSS is their largest. */
  figures: Figures;
  /** Each round's own figures, in the order they were taken: how far the rounds spread. */
  rounds: Figures[];
}

interface Idle {
  startMs: number;
  idleRssMb: number;
}

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

/** A contender as it starts: its name, node's arguments and its environment beyond the upstream's. */
interface Contender {
  name: string;
  args: string[];
  env?: Record<string, string>;
  /** Runs in PostHog's dialects too, not only in the spec dialect. */
  inEveryDialect?: boolean;
}

/**
 * Every contender, in the order they start and are measured. `otlpEndpoint` receives the traced
 * gateway's spans; `redisUrl` null leaves the gateways that share state out; Mesh only when it
 * has a scenario to run.
 */
function contenders(withMesh: boolean, otlpEndpoint: string, redisUrl: string | null): Contender[] {
  const shared = { ...GATEWAY_ENV, REDIS_URL: redisUrl ?? '' };
  // Each gateway right after the bare yoga server it is compared with, so that with the rounds
  // taken forward and back the two are always measured one after the other: the machine's speed
  // drifts while a run goes on (one contender's rounds of a cell spread by up to 1.8x in a run),
  // and rounds taken 20 s apart, three contenders between them, carried more of that drift.
  return [
    { name: 'floor', args: ['test/bench/floor.mjs'], inEveryDialect: true },
    { name: 'bare yoga', args: ['test/bench/bare-yoga.mjs'], inEveryDialect: true },
    // As `npm start` runs it: metrics on (the default), tracing off.
    { name: 'gateway', args: ['dist/main.js'], env: GATEWAY_ENV, inEveryDialect: true },
    // In every dialect: whether the larger young generation pays where the one-call cells sit
    // nearest bare yoga's CPU (PostHog's dialects, docs/performance.md) decides whether it
    // belongs in `npm start`'s flags.
    {
      name: BARE_YOGA_LARGER_YOUNG,
      args: [LARGER_YOUNG_GENERATION, 'test/bench/bare-yoga.mjs'],
      inEveryDialect: true,
    },
    {
      name: GATEWAY_LARGER_YOUNG,
      args: [LARGER_YOUNG_GENERATION, 'dist/main.js'],
      env: GATEWAY_ENV,
      inEveryDialect: true,
    },
    ...(RIVALS
      ? [
          { name: 'Apollo + RESTDataSource', args: ['test/bench/rivals/apollo.mjs'], inEveryDialect: true },
          // Composes its supergraph from the OpenAPI description as it starts.
          ...(withMesh ? [{ name: MESH, args: ['test/bench/rivals/mesh.mjs'] }] : []),
        ]
      : []),
    // What tracing costs: every operation and upstream attempt a span, exported over OTLP/HTTP.
    {
      name: 'gateway, traced',
      args: ['dist/main.js'],
      env: { ...GATEWAY_ENV, OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint },
    },
    // Its CPU and RSS are those of the supervisor and both workers together.
    { name: 'gateway, 2 workers', args: ['dist/main.js'], env: { ...GATEWAY_ENV, WORKERS: '2' } },
    // Sharing state through Redis: one process, and 1, 2 and 4 workers behind one port.
    ...(redisUrl
      ? [
          { name: 'gateway, REDIS_URL', args: ['dist/main.js'], env: shared },
          { name: 'gateway, REDIS_URL, 2 workers', args: ['dist/main.js'], env: { ...shared, WORKERS: '2' } },
          { name: 'gateway, REDIS_URL, 4 workers', args: ['dist/main.js'], env: { ...shared, WORKERS: '4' } },
        ]
      : []),
  ];
}

/**
 * The contenders of one dialect, started one after another in front of the upstream at
 * `upstreamUrl`: every one in the spec dialect, those `inEveryDialect` in PostHog's.
 */
async function startContenders(
  dialect: BenchDialect,
  upstreamUrl: string,
  withMesh: boolean,
  withTailcall: boolean,
  redisUrl: string | null,
): Promise<Process[]> {
  // Where the traced gateway exports its spans: a sink that reads and drops them.
  const otlpSink = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => otlpSink.listen(0, '127.0.0.1', resolve));
  otlpSink.unref();
  const otlpEndpoint = `http://127.0.0.1:${(otlpSink.address() as AddressInfo).port}`;
  const started: Process[] = [];
  for (const c of contenders(withMesh, otlpEndpoint, redisUrl)) {
    if (dialect !== 'spec' && !c.inEveryDialect) continue;
    const pattern = c.args.includes('dist/main.js') ? GATEWAY_LISTENING : LISTENING;
    started.push(await start(c.name, c.args, { UPSTREAM_URL: upstreamUrl, ...c.env }, pattern));
  }
  // Tailcall's configuration, like Mesh's description, is the interface document's: spec only.
  if (withTailcall) started.push(await startTailcall(upstreamUrl));
  return started;
}

/** Each scenario in each dialect it runs in: the rows of the tables, in order. */
const runsOf = (scenarios: Scenario[]) =>
  DIALECTS.flatMap((dialect) =>
    scenarios.filter((s) => s.dialects.includes(dialect)).map((s) => ({ s, dialect })),
  );

/** The full table: every contender in every scenario and dialect. */
function contenderRows(scenarios: Scenario[], results: Result[]): string[] {
  const rows = [
    '| scenario | dialect | contender | req/s | p50 ms | p99 ms | cpu µs/op | × floor | × bare yoga | peak RSS MB | RSS × bare yoga | upstream calls/op | errors |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { s, dialect } of runsOf(scenarios)) {
    const here = results.filter((r) => r.scenario === s.name && r.dialect === dialect);
    const of = (name: string) => here.find((r) => r.contender === name)!.figures;
    for (const { contender, figures: f } of here) {
      const bare = of(bareYogaFor(contender));
      rows.push(
        `| ${s.name} | ${dialect} | ${contender} | ${f.requestsPerSecond.toFixed(0)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.cpuMicrosPerOp.toFixed(0)} | ${(f.cpuMicrosPerOp / of('floor').cpuMicrosPerOp).toFixed(2)} | ${(f.cpuMicrosPerOp / bare.cpuMicrosPerOp).toFixed(2)} | ${f.peakRssMb.toFixed(0)} | ${(f.peakRssMb / bare.peakRssMb).toFixed(2)} | ${f.upstreamCallsPerOp.toFixed(2)} | ${f.errors} |`,
      );
    }
  }
  return rows;
}

/** The summary: the gateway's CPU per operation and peak RSS as ratios to bare yoga's. */
function gatewayRows(scenarios: Scenario[], results: Result[]): string[] {
  const rows = [
    '| scenario | dialect | gateway cpu × bare yoga | gateway peak RSS × bare yoga |',
    '|---|---|---:|---:|',
  ];
  for (const { s, dialect } of runsOf(scenarios)) {
    const of = (name: string) =>
      results.find((r) => r.scenario === s.name && r.dialect === dialect && r.contender === name)!.figures;
    const [gateway, bare] = [of('gateway'), of('bare yoga')];
    rows.push(
      `| ${s.name} | ${dialect} | ${(gateway.cpuMicrosPerOp / bare.cpuMicrosPerOp).toFixed(2)} | ${(gateway.peakRssMb / bare.peakRssMb).toFixed(2)} |`,
    );
  }
  return rows;
}

/** The tables on stdout and the figures as JSON under bench-results/. */
function report(
  scenarios: Scenario[],
  results: Result[],
  idle: Record<string, Idle>,
  fanOut: FanOutFigures[],
  perKey: { figures: PerKeyFigures[]; state: PerKeyState[] } | null,
  refresh: string[],
): void {
  const rows = [...contenderRows(scenarios, results), '', ...gatewayRows(scenarios, results)];
  rows.push('', '| contender | start to first answer ms | idle RSS MB |', '|---|---:|---:|');
  for (const [name, i] of Object.entries(idle))
    rows.push(`| ${name} | ${i.startMs.toFixed(0)} | ${i.idleRssMb.toFixed(0)} |`);
  if (fanOut.length > 0) rows.push('', ...fanOutRows(fanOut));
  if (perKey) rows.push('', ...perKeyRows(perKey));
  if (refresh.length > 0) rows.push('', ...refresh);
  const table = rows.join('\n');
  console.log(
    `\n${ROUNDS} round(s) × ${SECONDS} s, ${CONNECTIONS} connections, Node ${process.version}\n\n${table}`,
  );
  mkdirSync(`${ROOT}bench-results`, { recursive: true });
  const file = `${ROOT}bench-results/${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  writeFileSync(
    file,
    JSON.stringify(
      { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, idle, results, fanOut, perKey },
      null,
      2,
    ),
  );
  console.log(`\nfigures: ${file}`);
}

/** Start to first answer and idle RSS of each contender, before any load. */
async function measureIdle(contenders: Process[], scenario: Scenario, upstreamUrl: string, key: string) {
  const idle: Record<string, Idle> = {};
  for (const c of contenders) {
    const asked = performance.now();
    await check(c, scenario, upstreamUrl, key, false);
    const startMs = c.startMs + (performance.now() - asked);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    idle[c.name] = { startMs, idleRssMb: rssBytes(c.child.pid!) / 1024 / 1024 };
  }
  return idle;
}

/**
 * Each scenario of one dialect, each contender that runs it: ROUNDS rounds taken in turn
 * (forward, then back), each right after its own warm-up; the rounds' mean (the peak RSS: their
 * largest).
 */
async function measureScenarios(
  scenarios: Scenario[],
  dialect: BenchDialect,
  contenders: Process[],
  upstreamUrl: string,
) {
  const results: Result[] = [];
  const key = KEY_OF[dialect];
  for (const scenario of scenarios) {
    await control(upstreamUrl, 'PUT', 'latency', { latencyMs: scenario.latencyMs, jitterMs: 0 });
    const running = runningIn(contenders, scenario);
    const callsPerOp: Record<string, number> = {};
    for (const c of running) callsPerOp[c.name] = await check(c, scenario, upstreamUrl, key);
    const rounds: Record<string, Figures[]> = Object.fromEntries(running.map((c) => [c.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Every other round in reverse, so that no contender is always measured after the same one
      // (what ran before leaves the machine's caches, and the upstream's heap, as it left them),
      // and a steady drift of the machine's speed weighs the same on each.
      for (const c of round % 2 === 0 ? running : [...running].reverse()) {
        // Untimed load right before each round: the round measures a server already under
        // load, not one waking from minutes of idling while the others ran. Before the first
        // round it also keeps V8 compiling this scenario's paths out of the measurement. It
        // does not settle the heap: a process still runs small (and dearer per operation) or
        // grown for minutes at a time (docs/performance.md, "Rounds that began from a shrunk
        // heap"), which is why each round's figures are kept.
        await measure(c, scenario, key, WARM_UP_SECONDS);
        rounds[c.name]!.push({
          ...(await measure(c, scenario, key)),
          upstreamCallsPerOp: callsPerOp[c.name]!,
        });
      }
    }
    for (const c of running) {
      const all = rounds[c.name]!;
      const figures = Object.fromEntries(
        Object.keys(all[0]!).map((k) => [k, mean(all.map((f) => f[k as keyof Figures]))]),
      ) as unknown as Figures;
      figures.peakRssMb = Math.max(...all.map((f) => f.peakRssMb));
      results.push({ scenario: scenario.name, dialect, contender: c.name, figures, rounds: all });
    }
    console.error(`measured: ${scenario.name} (${dialect})`);
  }
  return results;
}

/**
 * The scenarios of each dialect against a reference upstream answering in it, in front of which
 * its contenders start afresh (a contender's upstream is fixed when it starts).
 */
async function main() {
  console.log('building dist/ …');
  execFileSync('npm', ['run', '-s', 'build', '--workspaces', '--include-workspace-root'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (RIVALS) installRivals();
  const scenarios = SCENARIOS.filter((s) => !ONLY || s.name.includes(ONLY));
  const redis = await startRedis();
  const redisUrl = redis?.url ?? null;
  const results: Result[] = [];
  let idle: Record<string, Idle> | undefined;
  for (const dialect of DIALECTS) {
    const group = scenarios.filter((s) => s.dialects.includes(dialect));
    if (group.length === 0) continue;
    const upstream = await start(
      `upstream (${dialect})`,
      ['posthog-emulator/dist/cli.js', '--port', '0', '--dialect', dialect],
      {},
      LISTENING,
    );
    // Mesh's OpenAPI description is the interface document's: it runs in the spec dialect only.
    const withMesh = RIVALS && dialect === 'spec' && group.some((s) => s.meshQuery !== undefined);
    const withTailcall =
      RIVALS && dialect === 'spec' && tailcallInstalled() && group.some((s) => s.tailcallQuery !== undefined);
    const contenders = await startContenders(dialect, upstream.url, withMesh, withTailcall, redisUrl);
    // Start-up and idle memory are the same whatever the dialect: taken once, with every contender.
    idle ??= await measureIdle(contenders, group[0]!, upstream.url, KEY_OF[dialect]);
    results.push(...(await measureScenarios(group, dialect, contenders, upstream.url)));
    await stopProcesses([upstream.child, ...contenders.map((c) => c.child)]);
  }
  await redis?.stop();
  const fanOut: FanOutFigures[] = [];
  if (!ONLY || 'fan-out'.includes(ONLY)) {
    for (const n of FAN_OUT) {
      fanOut.push(await measureFanOutFloor(n));
      fanOut.push(await measureFanOut(n, GATEWAY_LISTENING));
    }
    for (const n of FAN_OUT_FLEET) {
      fanOut.push(await measureFanOutWorkers(n));
      fanOut.push(await measureFanOutReplicas(n));
    }
  }
  // The per-key part (per-key.ts): `--only per-key` runs it alone.
  const perKey = !ONLY || 'per-key'.includes(ONLY) ? await measurePerKey() : null;
  // An admin page's refresh loop, cache off and on (refresh.ts): `--only refresh` runs it alone.
  const refresh = !ONLY || 'refresh'.includes(ONLY) ? await measureRefresh() : [];
  report(scenarios, results, idle ?? {}, fanOut, perKey, refresh);
}

await main();
await stopProcesses();
process.exit(0);
