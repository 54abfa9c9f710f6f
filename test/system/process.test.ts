// The gateway as a process, as `npm start` runs it: start-up with an upstream, with the demo
// (DEMO_UPSTREAM=true) and refused with neither, GraphiQL and its prefilled query, configuration
// errors, a busy port, and graceful shutdown on SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startReferenceUpstream } from 'posthog-emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { setHeapGrowth } from '../../src/heap-growth.ts';
import { EXAMPLE_QUERY } from '../../src/server/example-query.ts';
import { postQuery } from '../support/clients.ts';
import { DEPLOYED_NODE_FLAGS } from '../support/deployed-node-flags.ts';
import { until } from '../support/wait.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** In front of the embedded reference upstream, as `npm start` asks for it. */
const DEMO = { DEMO_UPSTREAM: 'true' };
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** `nodeArguments`: node's own, before the script (V8 flags). */
function startGateway(env: Record<string, string>, nodeArguments: string[] = []) {
  const child = spawn(
    process.execPath,
    [...nodeArguments, '--conditions=source', '--import', 'tsx', 'src/main.ts'],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const match = /GraphiQL at (http:\/\/localhost:\d+\/graphql)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  return { child, url, output: () => ({ stdout, stderr }) };
}

describe('the gateway process', () => {
  it('refuses to start with neither UPSTREAM_URL nor DEMO_UPSTREAM, in one line saying to set UPSTREAM_URL', async () => {
    for (const env of [
      { NODE_ENV: 'production' },
      {},
      { NODE_ENV: 'production', DEMO_UPSTREAM: 'false' },
    ] as Record<string, string>[]) {
      const gateway = startGateway(env);
      const [code] = await once(gateway.child, 'exit');
      expect(code).toBe(1);
      const { stdout, stderr } = gateway.output();
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^gateway: UPSTREAM_URL is not set: set it to your PostHog \(e\.g\. UPSTREAM_URL=https:\/\/us\.posthog\.com\), or DEMO_UPSTREAM=true for a demo/,
        ),
      ]);
      await gateway.url.catch(() => undefined);
    }
  });

  it('starts with the embedded reference upstream when DEMO_UPSTREAM=true, saying so first; GraphiQL’s prefilled query runs; SIGTERM stops it cleanly', async () => {
    const gateway = startGateway({ NODE_ENV: 'production', DEMO_UPSTREAM: 'true', LOG_LEVEL: 'info' });
    const url = await gateway.url;
    expect(gateway.output().stdout.split('\n')[0]).toMatch(
      /^gateway: DEMO: in front of the embedded reference upstream \(spec dialect, made-up data, demo keys\)/,
    );
    const page = await (await fetch(url, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('CombinedView');
    expect(page).toContain('Bearer phx_full');
    // GraphiQL is told never to store the headers typed (its Settings then offer no such choice).
    expect(page).toContain('"shouldPersistHeaders":false');
    // The page says what is behind it, and lists the demo keys with their scopes.
    expect(page).toMatch(
      /<strong>Demo<\/strong>: the embedded reference upstream \(<code>spec<\/code> dialect/,
    );
    expect(page).toContain('<code>phx_read</code> (plugin:read, activity_log:read)');
    // Served whole: nothing to fetch from a CDN, so it works on a closed network.
    expect(page).not.toMatch(/<script[^>]+src=["']?https?:|unpkg\.com/);
    const answer = (await (await postQuery(url, EXAMPLE_QUERY)).json()) as {
      data: unknown;
      errors?: unknown;
    };
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toMatchObject({ project: { name: 'Hedgebox (production)' } });
    gateway.child.kill('SIGTERM');
    const [code] = await once(gateway.child, 'exit');
    expect(code).toBe(0);
  });

  it('prefills no key when pointed at an upstream', async () => {
    const upstream = await startReferenceUpstream();
    try {
      const gateway = startGateway({ UPSTREAM_URL: upstream.url });
      const page = await (await fetch(await gateway.url, { headers: { accept: 'text/html' } })).text();
      expect(page).toContain('CombinedView');
      expect(page).not.toContain('phx_');
      expect(page).toContain(`Upstream: <code>${upstream.url}</code>`);
    } finally {
      await upstream.close();
    }
  });

  it('finishes in-flight requests on SIGTERM, then refuses new ones and exits 0', async () => {
    const upstream = await startReferenceUpstream({ latencyMs: 600 });
    try {
      const gateway = startGateway({ UPSTREAM_URL: upstream.url });
      const url = await gateway.url;
      const inFlight = postQuery(url, '{ project(projectId: "1") { name } }');
      // The project's read, not the gateway's start-up probe of what the upstream routes.
      await until(
        () => upstream.requests.some((r) => r.path === '/api/projects/1/'),
        'the project’s read upstream',
      );
      gateway.child.kill('SIGTERM');
      const answer = await inFlight;
      expect((await answer.json()).data).toEqual({ project: { name: 'Hedgebox (production)' } });
      const [code] = await once(gateway.child, 'exit');
      expect(code).toBe(0);
      await expect(postQuery(url, '{ __typename }')).rejects.toThrow();
    } finally {
      await upstream.close();
    }
  });

  it('exits on SIGTERM even when its trace collector takes the spans and never answers', async () => {
    const upstream = await startReferenceUpstream();
    // A collector that accepts connections and requests, and answers none.
    const collector = createServer(() => undefined);
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const sockets = new Set<Socket>();
    collector.on('connection', (socket) => sockets.add(socket));
    try {
      const gateway = startGateway({
        UPSTREAM_URL: upstream.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
        OTEL_BSP_SCHEDULE_DELAY: '600000',
        LOG_LEVEL: 'warn',
      });
      const url = await gateway.url;
      expect((await postQuery(url, '{ project(projectId: "1") { name } }')).status).toBe(200);
      gateway.child.kill('SIGTERM');
      const [code] = await once(gateway.child, 'exit');
      expect(code).toBe(0);
      expect(gateway.output().stdout).toContain('the trace collector did not take the last spans');
    } finally {
      for (const socket of sockets) socket.destroy();
      collector.close();
      await upstream.close();
    }
  }, 20_000);

  it('refuses to start on a bad setting, naming the variable', async () => {
    for (const [name, value] of [
      ['PORT', 'eighty'],
      ['UPSTREAM_URL', 'ftp://example.com'],
      ['MAX_DEPTH', '0'],
      ['REFERENCE_DIALECT', 'graphql'],
    ]) {
      const gateway = startGateway({ [name!]: value! });
      const [code] = await once(gateway.child, 'exit');
      expect(code).toBe(1);
      expect(gateway.output().stderr).toMatch(new RegExp(`invalid configuration: ${name}=`));
      await gateway.url.catch(() => undefined);
    }
  });

  it('says in one line that the port is taken, and exits 1, with one process or several', async () => {
    const holder = createTcpServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as AddressInfo).port;
    try {
      for (const workers of ['1', '2']) {
        const gateway = startGateway({ ...DEMO, PORT: String(port), WORKERS: workers });
        const [code] = await once(gateway.child, 'exit');
        expect(code).toBe(1);
        expect(gateway.output().stderr.trim().split('\n')).toEqual([
          `gateway: port ${port} on 127.0.0.1 is in use by another process (EADDRINUSE): stop what holds it, or set PORT to another port`,
        ]);
        await gateway.url.catch(() => undefined);
      }
    } finally {
      holder.close();
    }
  });

  // V8's memory reducer, after some seconds of little allocation (its start delay: 8 s in Node 24's
  // V8, 30 s in Node 26's), runs memory-reducing mark-compacts that
  // also drop the gateway's optimized code: the next burst of load pays for compiling it again
  // (docs/operating.md, "Idle spells"). It cannot be turned off once the heap exists, so `npm start`
  // gives node --no-memory-reducer; V8 prints each of its steps under --trace-memory-reducer.
  it('runs node as npm start does, with no memory reducer to shrink the heap when idle', async () => {
    // The reducer's timer prints a line every 8 s from its start delay on, whether
    // or not the allocation rate then lets it collect. Its first collection is not awaited: on a
    // loaded machine V8 can judge the rate high for a minute or more, so it proves nothing more
    // about the flag than the timer's line does.
    const REDUCER = /Memory reducer: (?:started GC|low alloc|high alloc|waiting)/;
    const deployed = startGateway(DEMO, [...DEPLOYED_NODE_FLAGS, '--trace-memory-reducer']);
    const asNodeDefaults = startGateway(DEMO, ['--trace-memory-reducer']);
    await Promise.all([deployed.url, asNodeDefaults.url]);
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let waited = 0; waited < 90_000 && !REDUCER.test(asNodeDefaults.output().stdout); waited += 250)
      await sleep(250);
    expect(asNodeDefaults.output().stdout).toMatch(REDUCER);
    // The deployed one, started at the same moment, is given one more timer period to do the same.
    await sleep(9_000);
    expect(deployed.output().stdout).not.toMatch(/Memory reducer/);
  }, 120_000);

  // V8 prints the growth factor each mark-compact uses for the old generation's new limit
  // (--trace-gc-verbose): the first one after the gateway listens is read, with requests sent
  // until there is one. heap-growth.ts says why the factor is fixed.
  describe('V8 heap growth', () => {
    const FACTOR = /\[HeapController\] factor (\d+\.\d+) based on/;

    async function growthFactorUnderLoad(env: Record<string, string>, nodeArguments: string[] = []) {
      const gateway = startGateway({ ...DEMO, ...env }, ['--trace-gc-verbose', ...nodeArguments]);
      const url = await gateway.url;
      const sinceListening = () => gateway.output().stdout.split(/GraphiQL at .*\n/)[1] ?? '';
      for (let sent = 0; sent < 10_000 && !FACTOR.test(sinceListening()); sent++) {
        await (await postQuery(url, EXAMPLE_QUERY)).arrayBuffer();
      }
      return FACTOR.exec(sinceListening())?.[1];
    }

    it('is fixed at 2.5x by default, so an idle spell cannot leave the heap growing slowly', async () => {
      expect(await growthFactorUnderLoad({})).toBe('2.5');
    });

    it('is set by HEAP_GROWING_PERCENT', async () => {
      expect(await growthFactorUnderLoad({ HEAP_GROWING_PERCENT: '100' })).toBe('2.0');
    });

    // At 0, V8's own factor (4.0 under this load) may need more load than a test sends before its
    // first mark-compact: what is checked is that nothing is set.
    it('is left to V8 at 0, and to node when the flag was given to node', () => {
      expect(setHeapGrowth(0, [])).toBe(false);
      expect(setHeapGrowth(150, ['--heap_growing_percent=50'])).toBe(false);
    });

    it('is left as node was told when the flag is given to node itself', async () => {
      expect(await growthFactorUnderLoad({}, ['--heap-growing-percent=50'])).toBe('1.5');
    });
  });
});
