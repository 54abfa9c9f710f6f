// npm run bench:node [-- --node <path>,<path>…] [-- <run.ts's options>]: `npm run bench` (run.ts)
// once under each Node, one after another, and the floor's, bare yoga's and the gateway's figures
// side by side by Node. Every process of a run (the build, the upstream, each contender) is that
// Node: it is first on the PATH, and run.ts starts its contenders with its own node. Without
// --node: the node running this, Node 24 and Node 26 (tools/with-node.sh finds or fetches them),
// each version once. The options after are run.ts's, e.g. `--quick --no-rivals --only "<text>"`.
// A measurement, not a test: nothing here asserts. Each run's own table is printed as it ends,
// and its figures stay under bench-results/.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { ROOT } from './processes.ts';

/** The contenders compared across Nodes: the gateway and the two it is measured against. */
const COMPARED = ['floor', 'bare yoga', 'gateway'];

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  cpuMicrosPerOp: number;
  peakRssMb: number;
}
interface RunFile {
  results: { scenario: string; dialect: string; contender: string; figures: Figures }[];
  idle: Record<string, { startMs: number; idleRssMb: number }>;
}

const args = process.argv.slice(2);
const nodeAt = args.indexOf('--node');
const runArgs = nodeAt < 0 ? args : [...args.slice(0, nodeAt), ...args.slice(nodeAt + 2)];
const shown = runArgs.map((arg) => (/\s/.test(arg) ? JSON.stringify(arg) : arg)).join(' ');

/** The node binaries to compare, one per version. */
function nodes(): string[] {
  const given =
    nodeAt >= 0
      ? args[nodeAt + 1]!.split(',')
      : [
          process.execPath,
          ...['24', '26'].map((need) =>
            join(
              execFileSync('sh', [join(ROOT, 'tools/with-node.sh'), need], { encoding: 'utf8' }).trim(),
              'node',
            ),
          ),
        ];
  const byVersion = new Map<string, string>();
  for (const node of given) byVersion.set(versionOf(node), node);
  return [...byVersion.values()].sort((a, b) => majorOf(versionOf(a)) - majorOf(versionOf(b)));
}

const versionOf = (node: string) => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
const majorOf = (version: string) => Number(version.slice(1).split('.')[0]);

/** One run of run.ts under `node`: its figures, read from the file it names. */
function runUnder(node: string): RunFile {
  console.error(`\n== npm run bench -- ${shown} on node ${versionOf(node)}`);
  const run = spawnSync(node, ['--import', 'tsx', 'test/bench/run.ts', ...runArgs], {
    cwd: ROOT,
    env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH}` },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stdout.write(run.stdout);
  const file = /^figures: (.*\.json)$/m.exec(run.stdout)?.[1];
  if (run.status !== 0 || !file) throw new Error(`run.ts on ${node} ended with ${run.status}`);
  return JSON.parse(readFileSync(file, 'utf8')) as RunFile;
}

/** The compared contenders' figures in each scenario and dialect, one row per Node. */
function table(runs: [version: string, run: RunFile][]): string[] {
  const rows = [
    '| scenario | dialect | contender | Node | req/s | p50 ms | p99 ms | cpu µs/op | × bare yoga | peak RSS MB | idle RSS MB | start ms |',
    '|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const cells = runs[0]![1].results.filter((r) => r.contender === 'gateway');
  for (const { scenario, dialect } of cells) {
    for (const contender of COMPARED) {
      for (const [version, run] of runs) {
        const of = (name: string) =>
          run.results.find((r) => r.scenario === scenario && r.dialect === dialect && r.contender === name)
            ?.figures;
        const [f, bare] = [of(contender), of('bare yoga')];
        if (!f || !bare) continue;
        const idle = run.idle[contender];
        rows.push(
          `| ${scenario} | ${dialect} | ${contender} | ${version} | ${f.requestsPerSecond.toFixed(0)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.cpuMicrosPerOp.toFixed(0)} | ${(f.cpuMicrosPerOp / bare.cpuMicrosPerOp).toFixed(2)} | ${f.peakRssMb.toFixed(0)} | ${idle?.idleRssMb.toFixed(0) ?? '–'} | ${idle?.startMs.toFixed(0) ?? '–'} |`,
        );
      }
    }
  }
  return rows;
}

const runs: [string, RunFile][] = nodes().map((node) => [versionOf(node), runUnder(node)]);
console.log(`\nnpm run bench -- ${shown}, by Node\n\n${table(runs).join('\n')}`);
