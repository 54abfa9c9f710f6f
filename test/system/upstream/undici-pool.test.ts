// The gateway loads undici's Pool and its `request` alone, not undici's index (fetch, WebSocket,
// EventSource, the cache and mock agents): that saves 2.0 MB of heap at rest, which V8 multiplies
// under load (src/upstream/undici-pool.ts). Checked in a gateway process that answered a query
// through the upstream, so undici's lazily loaded parts (the HTTP parser) are in too.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
let upstream: ReferenceUpstream;
let child: ChildProcess | undefined;

beforeAll(async () => {
  upstream = await startReferenceUpstream({ port: 0 });
});
afterAll(() => {
  // A test that failed before its SIGTERM leaves no gateway behind.
  if (child?.exitCode === null) child.kill('SIGKILL');
  return upstream.close();
});

it('answers through undici without loading its index', async () => {
  const gateway = spawn(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      'tsx',
      '--import',
      './test/upstream/report-undici-files.mjs',
      'src/main.ts',
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        UPSTREAM_URL: upstream.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child = gateway;
  let stdout = '';
  let stderr = '';
  gateway.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  gateway.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = once(gateway, 'exit');
  const url = await new Promise<string>((resolve, reject) => {
    gateway.stdout.on('data', () => {
      const match = /GraphiQL at (http:\/\/localhost:\d+\/graphql)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    gateway.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });

  upstream.requests.length = 0;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
    body: JSON.stringify({ query: '{ project(projectId: "1") { name } }' }),
  });
  expect((await response.json()).data).toEqual({ project: { name: 'Hedgebox (production)' } });
  expect(upstream.requests.map((r) => r.path)).toEqual(['/api/projects/1/']);

  gateway.kill('SIGTERM');
  await exited;
  const files = JSON.parse(/undici files: (.*)/.exec(stderr)![1]!) as string[];
  expect(files).toContain('lib/dispatcher/pool.js');
  expect(files).toContain('lib/api/api-request.js');
  expect(files.some((f) => /^lib\/llhttp\/llhttp.*wasm\.js$/.test(f))).toBe(true);
  expect(files).not.toContain('index.js');
  expect(files.filter((f) => f.startsWith('lib/web/'))).toEqual([]);
});
