// WORKERS: several worker processes share the port (node:cluster), with the embedded reference
// upstream started once; ids and cursors work across workers; /metrics adds up every worker;
// SIGTERM drains them all.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { postQuery } from '../support/clients.ts';
import { settle } from '../support/wait.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('WORKERS=2', () => {
  it('serves from two workers on one port, pages across them, and drains both on SIGTERM', async () => {
    const primary = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'error',
        WORKERS: '2',
        DEMO_UPSTREAM: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(primary);
    let output = '';
    primary.stdout!.on('data', (chunk) => {
      output += chunk;
    });
    primary.stderr!.on('data', (chunk) => {
      output += chunk;
    });
    // Both workers report the same shared port.
    while ((output.match(/GraphiQL at http:\/\/localhost:\d+\/graphql/g) ?? []).length < 2) {
      if (primary.exitCode !== null) throw new Error(output);
      await settle(50);
    }
    const urls = [...output.matchAll(/GraphiQL at (http:\/\/localhost:\d+\/graphql)/g)].map((m) => m[1]!);
    expect(new Set(urls).size).toBe(1);
    const url = urls[0]!;
    // The primary's node children (tsx may run an esbuild service beside them).
    const workers = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(primary.pid)], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .filter((line) => !line.includes('esbuild'))
      .map((line) => line.trim().split(' ')[0]!);
    expect(workers).toHaveLength(2);

    // One upstream for both: the embedded reference upstream runs once, in the primary.
    const upstreams = [...output.matchAll(/GraphiQL at .* in front of .*?(http:\/\/127\.0\.0\.1:\d+)/g)].map(
      (m) => m[1],
    );
    expect(upstreams).toHaveLength(2);
    expect(new Set(upstreams).size).toBe(1);

    // Page through all configs, one new connection per page, so pages land on either worker.
    const QUERY = `query($after: String) { project(projectId: "@current") {
      destinationConfigs(first: 40, after: $after) { edges { node { id databaseId } } pageInfo { hasNextPage endCursor } } } }`;
    const ids: number[] = [];
    for (let after: string | null = null; ; ) {
      const answer = (await (
        await postQuery(url, QUERY, { variables: { after }, headers: { connection: 'close' } })
      ).json()) as { data: Record<string, unknown> | null; errors?: unknown };
      expect(answer.errors).toBeUndefined();
      const page = (
        answer.data!.project as {
          destinationConfigs: {
            edges: { node: { databaseId: number } }[];
            pageInfo: { hasNextPage: boolean; endCursor: string };
          };
        }
      ).destinationConfigs;
      ids.push(...page.edges.map((e) => e.node.databaseId));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(ids).toHaveLength(155);
    expect(new Set(ids).size).toBe(155);

    // Whichever worker takes a scrape, /metrics counts the operations of both.
    const base = url.replace('/graphql', '');
    for (let scrape = 0; scrape < 4; scrape++) {
      const text = await fetch(`${base}/metrics`, { headers: { connection: 'close' } }).then((r) => r.text());
      const counted = [...text.matchAll(/^gateway_graphql_operations_total\{[^}]*\} (\d+)$/gm)].reduce(
        (sum, m) => sum + Number(m[1]),
        0,
      );
      expect(counted).toBe(4);
    }

    primary.kill('SIGTERM');
    const [code] = await once(primary, 'exit');
    expect(code).toBe(0);
    // No worker died along the way (the supervisor would have replaced it, and said so).
    expect(output).not.toContain('worker died');
    for (const pid of workers.map(Number)) {
      expect(() => process.kill(pid, 0)).toThrow();
    }
  }, 30_000);
});
