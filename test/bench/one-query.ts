// npm run bench:query -- [--dialect spec|posthog|posthog-2026] [--latency MS] [--seconds S] [--quick] '<document>':
// one query, the gateway beside bare yoga, each started, loaded and measured as `npm run bench`
// measures them (the deployed node flags, the bench's gateway settings, 50 connections, untimed
// load before each round, rounds taken in turn and every other one in reverse), in front of the
// reference upstream. For finding where the gateway costs more than the stack itself: a scenario
// a part at a time (docs/performance.md, "Where the gateway costs more than bare yoga"). A
// measurement, not a test: nothing here asserts.
import { execFileSync } from 'node:child_process';
import {
  CONNECTIONS,
  check,
  control,
  type Figures,
  mean,
  measure,
  ROUNDS,
  SECONDS,
  WARM_UP_SECONDS,
} from './measure.ts';
import {
  GATEWAY_ENV,
  GATEWAY_LISTENING,
  LISTENING,
  type Process,
  ROOT,
  start,
  stopProcesses,
} from './processes.ts';
import { type BenchDialect, DIALECTS, KEY_OF, type Scenario } from './scenarios.ts';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? undefined : process.argv[at + 1];
}

function usage(problem: string): never {
  console.error(
    `${problem}\nusage: npm run bench:query -- [--dialect ${DIALECTS.join('|')}] [--latency MS] [--seconds S] [--quick] '<document>'`,
  );
  process.exit(2);
}

function scenarioOfArguments(): { scenario: Scenario; dialect: BenchDialect; seconds: number } {
  const dialect = (option('dialect') ?? 'spec') as BenchDialect;
  if (!DIALECTS.includes(dialect)) usage(`--dialect must be one of ${DIALECTS.join(', ')}`);
  const latencyMs = Number(option('latency') ?? 0);
  const seconds = Number(option('seconds') ?? SECONDS);
  if (!(latencyMs >= 0) || !(seconds > 0)) usage('--latency and --seconds take a number');
  const query = process.argv.at(-1)!;
  if (!query.trimStart().startsWith('{') && !query.trimStart().startsWith('query'))
    usage('the last argument is the query document');
  // No floor: its routes are the scenarios' own (floor.mjs).
  return {
    scenario: { name: 'query', dialects: [dialect], latencyMs, query, floorPath: '' },
    dialect,
    seconds,
  };
}

const range = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;

async function main() {
  const { scenario, dialect, seconds } = scenarioOfArguments();
  execFileSync('npm', ['run', '-s', 'build', '--workspaces', '--include-workspace-root'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const upstream = await start(
    'upstream',
    ['posthog-emulator/dist/cli.js', '--port', '0', '--dialect', dialect],
    {},
    LISTENING,
  );
  const env = { UPSTREAM_URL: upstream.url };
  const contenders: Process[] = [
    await start('bare yoga', ['test/bench/bare-yoga.mjs'], env, LISTENING),
    await start('gateway', ['dist/main.js'], { ...env, ...GATEWAY_ENV }, GATEWAY_LISTENING),
  ];
  await control(upstream.url, 'PUT', 'latency', { latencyMs: scenario.latencyMs, jitterMs: 0 });
  const key = KEY_OF[dialect];
  const calls = new Map<Process, number>();
  for (const c of contenders) calls.set(c, await check(c, scenario, upstream.url, key));
  const rounds = new Map<Process, Omit<Figures, 'upstreamCallsPerOp'>[]>(contenders.map((c) => [c, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of round % 2 === 0 ? contenders : [...contenders].reverse()) {
      await measure(c, scenario, key, WARM_UP_SECONDS);
      rounds.get(c)!.push(await measure(c, scenario, key, seconds));
    }
  }
  console.log(
    `\n${dialect}, upstream ${scenario.latencyMs} ms, ${ROUNDS} rounds × ${seconds} s, ${CONNECTIONS} connections\n`,
  );
  console.log(
    '| contender | cpu µs/op | rounds | p50 ms | upstream calls/op | errors |\n|---|---:|---|---:|---:|---:|',
  );
  for (const c of contenders) {
    const all = rounds.get(c)!;
    const cpu = all.map((f) => f.cpuMicrosPerOp);
    console.log(
      `| ${c.name} | ${mean(cpu).toFixed(0)} | ${range(cpu)} | ${mean(all.map((f) => f.p50)).toFixed(1)} | ${calls.get(c)} | ${all.reduce((n, f) => n + f.errors, 0)} |`,
    );
  }
  const [bare, gateway] = contenders.map((c) => mean(rounds.get(c)!.map((f) => f.cpuMicrosPerOp)));
  console.log(`\ngateway cpu × bare yoga: ${(gateway! / bare!).toFixed(2)}`);
}

await main();
await stopProcesses();
process.exit(0);
