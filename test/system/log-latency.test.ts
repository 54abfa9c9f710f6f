// The gateway as a process writes an operation's log line soon after the operation, at idle too:
// the line a caller's x-request-id points to is on stdout while the process runs, with no more
// traffic to fill a batch (the contract, LOG_FLUSH_MS in src/observability/stdout-batches.ts, is
// a second; the test waits longer and asserts no timing); and it has written every line when it
// stops on SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { startReferenceUpstream } from 'posthog-emulator';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function startGateway(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk) => {
    output.stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output.stderr += chunk;
  });
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const match = /GraphiQL at (http:\/\/localhost:\d+\/graphql)/.exec(output.stdout);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output.stderr}`)));
  });
  return { child, url, output };
}

const post = (url: string, requestId: string, operation: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer phx_full',
      'x-request-id': requestId,
    },
    body: JSON.stringify({ query: `query ${operation} { __typename }` }),
  });

/** The JSON lines of `text` with `requestId`. */
const linesOf = (text: string, requestId: string) =>
  text
    .split('\n')
    .filter((line) => line.includes(requestId))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the operation log of the process', () => {
  it('writes a lone operation’s line while the process runs, with no traffic after it', async () => {
    const upstream = await startReferenceUpstream();
    try {
      const gateway = startGateway({ UPSTREAM_URL: upstream.url });
      const url = await gateway.url;
      const requestId = 'log-latency-1';
      const answer = await post(url, requestId, 'LoneOperation');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-request-id')).toBe(requestId);
      await answer.text();

      // Generous, not a timing assert: the line is due within a second.
      for (let waited = 0; waited < 10_000 && linesOf(gateway.output.stdout, requestId).length === 0; ) {
        await sleep(100);
        waited += 100;
      }
      expect(gateway.child.exitCode).toBeNull();
      expect(linesOf(gateway.output.stdout, requestId)).toEqual([
        expect.objectContaining({ requestId, operation: 'LoneOperation', msg: 'graphql operation' }),
      ]);
    } finally {
      await upstream.close();
    }
  });

  it('has written every line when it stops on SIGTERM right after its operations', async () => {
    const upstream = await startReferenceUpstream();
    try {
      const gateway = startGateway({ UPSTREAM_URL: upstream.url });
      const url = await gateway.url;
      const ids = ['log-stop-1', 'log-stop-2', 'log-stop-3'];
      for (const id of ids) await (await post(url, id, 'BeforeStop')).text();
      gateway.child.kill('SIGTERM');
      const [code] = await once(gateway.child, 'exit');
      expect(code).toBe(0);
      for (const id of ids) expect(linesOf(gateway.output.stdout, id)).toHaveLength(1);
      expect(gateway.output.stdout).toContain('"msg":"stopped"');
    } finally {
      await upstream.close();
    }
  });
});
