// The production path, on a copy of this checkout: the deploy sequence of docs/operating.md (install with dev
// dependencies, build, prune them, run `node --no-memory-reducer dist/main.js` as the image's PID 1 would) serves and
// stops cleanly on SIGTERM with no TypeScript loader installed, refuses to start with no
// UPSTREAM_URL, and refuses the demo, whose emulator the build does not hold; and `npm start` on a fresh copy builds dist/ first, runs
// compiled JS in front of the embedded upstream (a demo, its first line says), and leaves no orphan
// when npm gets SIGTERM.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, describe, expect, it } from 'vitest';
import { DEPLOYED_NODE_FLAGS } from '../support/deployed-node-flags.ts';
import { until } from '../support/wait.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const copies: string[] = [];
const upstreams: ReferenceUpstream[] = [];
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const upstream of upstreams) await upstream.close();
  // Each child leads its own process group: a test that fails midway leaves no node behind npm.
  for (const child of children) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
  // A copy's node_modules is a whole install: on a busy machine removing it outlasts the default 20 s.
}, 120_000);

/** The files git tracks (and new ones it does not ignore), as a fresh clone would have them. */
function copyCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-production-'));
  copies.push(dir);
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f && existsSync(join(ROOT, f)));
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  return dir;
}

/**
 * The checkout's node_modules, linked entry by entry, but for the workspace's link: that one
 * points at the copy's own posthog-emulator/, as `npm ci` in the copy would make it.
 */
function linkNodeModules(dir: string) {
  mkdirSync(join(dir, 'node_modules'));
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    const target = name === 'posthog-emulator' ? join(dir, name) : join(ROOT, 'node_modules', name);
    symlinkSync(target, join(dir, 'node_modules', name), 'dir');
  }
}

const run = (cwd: string, command: string, args: string[]) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, CI: 'true' } });

/** Starts a command, resolving the URL it prints once it listens. */
function serve(cwd: string, command: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const match = /GraphiQL at (http:\/\/localhost:\d+\/graphql)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  return { child, url, output: () => output };
}

/** `configs`: the project's legacy configs in the dialect served (spec's seed holds 155). */
async function answersTheCombinedView(url: string, configs: unknown = 155) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
    body: JSON.stringify({
      query: '{ project(projectId: "@current") { id name destinationConfigs(first: 2) { totalCount } } }',
    }),
  });
  const body = await response.json();
  expect(body.data).toEqual({
    project: {
      id: expect.any(String),
      name: 'Hedgebox (production)',
      destinationConfigs: { totalCount: configs },
    },
  });
  // As deployed, each answer says what it cost upstream.
  expect(body.extensions.cost).toMatchObject({
    estimatedCalls: expect.any(Number),
    calls: expect.any(Number),
  });
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the production path', () => {
  it('builds, prunes dev dependencies, and runs node --no-memory-reducer dist/main.js, which stops cleanly on SIGTERM', async () => {
    const dir = copyCheckout();
    run(dir, 'npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund']);
    run(dir, 'npm', ['run', 'build']);
    run(dir, 'npm', ['prune', '--omit=dev', '--no-audit', '--no-fund']);
    for (const devOnly of ['typescript', 'tsx', 'vitest'])
      expect(existsSync(join(dir, 'node_modules', devOnly))).toBe(false);

    // As deployed, with no UPSTREAM_URL: no made-up data is served; one line says what to set.
    const bare = serve(dir, process.execPath, [...DEPLOYED_NODE_FLAGS, 'dist/main.js'], {
      NODE_ENV: 'production',
    });
    const [refused] = await once(bare.child, 'exit');
    await bare.url.catch(() => undefined);
    expect(refused).toBe(1);
    expect(bare.output().trim().split('\n')).toEqual([
      expect.stringMatching(
        /^gateway: UPSTREAM_URL is not set: set it to your PostHog .* or DEMO_UPSTREAM=true/,
      ),
    ]);

    // The build holds the gateway only: the demo's emulator is a package apart, not in dist/.
    expect(
      readdirSync(join(dir, 'dist'), { recursive: true }).filter((f) => /emulator|reference/.test(String(f))),
    ).toEqual([]);
    const demo = serve(dir, process.execPath, [...DEPLOYED_NODE_FLAGS, 'dist/main.js'], {
      NODE_ENV: 'production',
      DEMO_UPSTREAM: 'true',
    });
    const [noDemo] = await once(demo.child, 'exit');
    await demo.url.catch(() => undefined);
    expect(noDemo).toBe(1);
    expect(demo.output()).toContain('DEMO_UPSTREAM needs the posthog-emulator package');

    // In front of an upstream, as deployed.
    const upstream = await startReferenceUpstream();
    upstreams.push(upstream);
    const gateway = serve(dir, process.execPath, [...DEPLOYED_NODE_FLAGS, 'dist/main.js'], {
      NODE_ENV: 'production',
      UPSTREAM_URL: upstream.url,
    });
    await answersTheCombinedView(await gateway.url);
    const page = await fetch(await gateway.url, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('CombinedView');
    gateway.child.kill('SIGTERM');
    const [code] = await once(gateway.child, 'exit');
    expect(code).toBe(0);
    expect(gateway.output()).toContain('"msg":"stopped"');
  }, 300_000);

  it('npm start on a fresh copy builds dist/ first, then runs compiled JS; SIGTERM to npm reaches node', async () => {
    const dir = copyCheckout();
    linkNodeModules(dir);
    const npm = serve(dir, 'npm', ['start']);
    // npm start serves today's PostHog (posthog-2026).
    await answersTheCombinedView(await npm.url, expect.any(Number));
    expect(npm.output()).toContain('building dist/');
    // npm start asks for the demo itself, and the gateway's first line (after the build step's,
    // from build-if-stale.js) says it is one.
    const lines = npm.output().split('\n');
    const first = lines.find(
      (line) => (line.startsWith('gateway:') && !line.includes('dist/ …')) || line.startsWith('{'),
    );
    expect(first).toMatch(
      /^gateway: DEMO: in front of the embedded reference upstream \(posthog-2026 dialect/,
    );
    // npm runs the script in a shell that execs node: node is npm's own child, not the shell's.
    const [node] = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(npm.child.pid)], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s+/));
    expect(node!.slice(1)).toEqual([expect.stringMatching(/node$/), '--no-memory-reducer', 'dist/main.js']);
    npm.child.kill('SIGTERM');
    await once(npm.child, 'exit');
    const pid = Number(node![0]);
    await until(() => !isRunning(pid), 'the server process gone');
    expect(isRunning(pid)).toBe(false);
  }, 120_000);
});
