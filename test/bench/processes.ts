// The contenders as processes: started (the gateway with the bench's settings), found by the URL
// they print, measured from /proc (CPU ticks and RSS of a process and its descendants), and
// stopped however the run ends.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEPLOYED_NODE_FLAGS } from '../support/deployed-node-flags.ts';
import { waitFor } from '../support/redis-server.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** Every process this run started, stopped however it ends. */
export const spawned: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of spawned) if (child.exitCode === null) child.kill('SIGTERM');
});

/**
 * The gateway's own settings in the bench: a per-key upstream budget far above the load, so its
 * counting is measured without ever refusing a call (PostHog's 480 a minute would refuse most).
 */
export const GATEWAY_ENV = {
  GRAPHIQL: 'false',
  UPSTREAM_BUDGET_PER_MINUTE: '1000000',
  UPSTREAM_BUDGET_PER_HOUR: '10000000',
};

/** What a contender prints once it listens: the bench's servers, and the gateway. */
export const LISTENING = /listening on (http:\/\/\S+)/;
export const GATEWAY_LISTENING = /GraphiQL at (http:\/\/[^\s,]+)/;

export interface Process {
  name: string;
  child: ChildProcess;
  url: string;
  startMs: number;
}

/**
 * Spawns a server and resolves once it prints the URL it listens on. Every contender gets the
 * node flags the gateway is deployed with (`npm start`): --no-memory-reducer, without which each
 * idle spell between a contender's rounds (the others' turns, 14-42 s) cost it its optimized code
 * and the next round a recompile (docs/performance.md, "Idle spells between rounds"). The same
 * flags for all, so that the ratios compare the servers, not how node was started.
 */
export async function start(
  name: string,
  args: string[],
  env: Record<string, string>,
  pattern: RegExp,
): Promise<Process> {
  const started = performance.now();
  const child = spawn(process.execPath, [...DEPLOYED_NODE_FLAGS, ...args], {
    cwd: ROOT,
    // Every contender in production mode, as it would be deployed (graphql-js, for one, skips
    // its development checks then).
    env: { PATH: process.env.PATH, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  spawned.push(child);
  // What it logs after that (the gateway's operation log) is read and dropped.
  const [, url] = await waitFor(child, pattern, name);
  return { name, child, url: url!, startMs: performance.now() - started };
}

/** A process and its descendants (the workers of WORKERS=2). */
export function processTree(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number),
  );
  return [pid, ...children.flatMap(processTree)];
}
export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
export const cpuTicks = (pid: number) =>
  sum(
    processTree(pid).map((p) => {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    }),
  );
export const rssBytes = (pid: number) =>
  sum(
    processTree(pid).map(
      (p) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))![1]) * 1024,
    ),
  );

/**
 * Stops these processes (every one this run started, by default) and waits for them to exit,
 * reading their output meanwhile: leaving at once closed the pipes of gateways still draining,
 * and a worker of the 2-worker gateway was once left behind, stuck writing its last log lines to
 * the closed pipe. Whatever outlives the wait is killed.
 */
export async function stopProcesses(children: ChildProcess[] = spawned): Promise<void> {
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  const exited = running.map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of running) child.kill('SIGTERM');
  const late = new Promise((resolve) => setTimeout(resolve, 20_000).unref());
  await Promise.race([Promise.all(exited), late]);
  for (const child of running)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
