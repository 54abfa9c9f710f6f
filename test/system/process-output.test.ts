// The gateway as a process writes nothing but JSON lines on stdout and stderr once it listens:
// a log collector parses every line. A JSON literal in an argument (a scalar whose parseLiteral
// reads variables) made graphql-jit write a plain-text line to stderr for each new document.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
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

/** A JSON literal with a made-up key, in a document the process has not seen. */
const withJsonLiteral = (n: number) =>
  `mutation { createDestinationConfig(input: {projectId: "1", plugin: 1, order: ${n}, config: {madeUpKey${n}: [1, "two", {three: 3}]}}) { destinationConfig { id } } }`;

const notJson = (lines: string[]) =>
  lines.filter((line) => {
    try {
      JSON.parse(line);
      return false;
    } catch {
      return true;
    }
  });

describe('the process output', () => {
  it.each([
    'compiled',
    'graphql-js',
  ])('is JSON lines only after documents with JSON literals (EXECUTOR=%s)', async (executor) => {
    const upstream = await startReferenceUpstream();
    try {
      const gateway = startGateway({ UPSTREAM_URL: upstream.url, EXECUTOR: executor });
      const url = await gateway.url;
      const startedAt = { stdout: gateway.output.stdout.length, stderr: gateway.output.stderr.length };
      for (const n of [1, 2, 3]) {
        // Without a key: refused, but parsed, validated and compiled all the same.
        const answer = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: withJsonLiteral(n) }),
        });
        const body = (await answer.json()) as { errors: { extensions: { code: string } }[] };
        expect(body.errors[0]!.extensions.code).toBe('UNAUTHENTICATED');
      }
      gateway.child.kill('SIGTERM');
      const [code] = await once(gateway.child, 'exit');
      expect(code).toBe(0);
      const linesFrom = (text: string, from: number) => text.slice(from).split('\n').filter(Boolean);
      const stdout = linesFrom(gateway.output.stdout, startedAt.stdout);
      const stderr = linesFrom(gateway.output.stderr, startedAt.stderr);
      // The operation log wrote its lines, so there was output to check.
      expect(stdout.length).toBeGreaterThan(0);
      expect(notJson(stdout)).toEqual([]);
      expect(notJson(stderr)).toEqual([]);
    } finally {
      await upstream.close();
    }
  });
});
