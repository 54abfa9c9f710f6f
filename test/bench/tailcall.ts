// Tailcall as a contender of npm run bench: its Linux binary from npm (pinned in
// test/bench/rivals/package.json), started on its own (no node beside it, so that its CPU and RSS
// are its own) with rivals/tailcall.graphql, whose port and upstream are written in here.
//
// 1.0.0 is the newest release that runs here: 1.6's binary needs glibc 2.38, Debian 12 has 2.36.
// Where the binary is not installed (another platform, --no-rivals) Tailcall sits out.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from '../support/redis-server.ts';
import { type Process, ROOT, spawned } from './processes.ts';
import { TAILCALL } from './scenarios.ts';

const RIVALS = join(ROOT, 'test/bench/rivals');
const BINARY = join(RIVALS, 'node_modules/@tailcallhq/core-linux-x64-gnu/bin/tailcall');

export const tailcallInstalled = () => existsSync(BINARY);

/** Starts Tailcall in front of `upstreamUrl`; resolves once it says it listens. */
export async function startTailcall(upstreamUrl: string): Promise<Process> {
  const started = performance.now();
  // Its configuration cannot ask for port 0.
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-tailcall-'));
  const config = readFileSync(join(RIVALS, 'tailcall.graphql'), 'utf8')
    .replaceAll('__PORT__', String(port))
    .replaceAll('__UPSTREAM__', upstreamUrl);
  writeFileSync(join(dir, 'tailcall.graphql'), config);
  copyFileSync(join(RIVALS, 'tailcall.js'), join(dir, 'tailcall.js'));
  const child = spawn(BINARY, ['start', join(dir, 'tailcall.graphql')], {
    cwd: dir,
    // No usage tracking (this machine has no internet to send it to), startup lines only.
    env: {
      PATH: process.env.PATH,
      TAILCALL_TRACKER: 'false',
      TC_TRACKER: 'false',
      TAILCALL_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  spawned.push(child);
  await waitFor(child, /Tailcall launched at \[/, TAILCALL);
  return {
    name: TAILCALL,
    child,
    url: `http://127.0.0.1:${port}/graphql`,
    startMs: performance.now() - started,
  };
}
