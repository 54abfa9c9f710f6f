// Issue 63: in front of an upstream that leaks every secret PostHog hides or masks (see
// leaking-upstream.ts), no planted value reaches a caller, for each kind of destination and in the
// activity log; and an upstream page that repeats an id gives one edge, and one log line per
// process and route.

import { startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayServer, startGatewayServer } from '../support/harness.ts';
import { type LeakingUpstream, startLeakingUpstream } from './leaking-upstream.ts';

type Upstream = Awaited<ReturnType<typeof startReferenceUpstream>>;

let upstream: Upstream;
let leaking: LeakingUpstream;
let gateway: GatewayServer;

async function gql(query: string): Promise<{ text: string; body: { data?: unknown; errors?: unknown[] } }> {
  const answer = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
    body: JSON.stringify({ query }),
  });
  const text = await answer.text();
  return { text, body: JSON.parse(text) };
}

/** The planted values whose name starts with `prefix` that the gateway was sent. */
const plantedAs = (prefix: string) => [...leaking.planted].filter(([, what]) => what.startsWith(prefix));

/** Each planted value of `prefix` was sent (the upstream leaked) and none is in `text`. */
function expectNoneLeaked(text: string, prefix: string): void {
  const sent = plantedAs(prefix);
  expect(sent.length, `the upstream planted ${prefix} values`).toBeGreaterThan(0);
  for (const [value] of sent) expect(text, `${prefix} value ${value}`).not.toContain(value);
}

beforeAll(async () => {
  upstream = await startReferenceUpstream({ dialect: 'posthog-2026', leakSecrets: true });
  leaking = await startLeakingUpstream(upstream.url);
  gateway = await startGatewayServer(leaking.url);
});
afterAll(async () => {
  await gateway.close();
  await leaking.close();
  await upstream.close();
});

describe('secrets, in front of an upstream that leaks every one', () => {
  it('hog functions: no secret default, no input no schema calls not secret', async () => {
    const { text, body } = await gql(`{ project(projectId: "1") {
      hogFunctions(first: 50) { edges { node { name inputsSchema inputs mappings template { inputsSchema } } } }
    } }`);
    expect(body.errors).toBeUndefined();
    expectNoneLeaked(text, 'hog-');
    expect(text).not.toMatch(/secret-\d+-/);
  });

  it('plugin configs: no value their plugin marks secret, listed or read alone', async () => {
    const listed = await gql(`{ project(projectId: "1") {
      destinationConfigs(first: 100) { edges { node { databaseId config } } }
    } }`);
    expect(listed.body.errors).toBeUndefined();
    const one = await gql(`{ project(projectId: "1") {
      a: destinationConfig(databaseId: 1) { config pluginInfo }
      b: destinationConfig(databaseId: 2) { config pluginInfo }
      c: destinationConfig(databaseId: 3) { config pluginInfo }
      d: destinationConfig(databaseId: 4) { config pluginInfo }
    } }`);
    expect(one.body.errors).toBeUndefined();
    expectNoneLeaked(listed.text + one.text, 'plugin-');
  });

  it('batch exports: no secret destination field, at any depth', async () => {
    const { text, body } = await gql(`{ project(projectId: "1") {
      batchExports(first: 50) { edges { node { destinationType destinationConfig } } }
    } }`);
    expect(body.errors).toBeUndefined();
    expectNoneLeaked(text, 'batch-export-');
  });

  it('the activity log: no secret in any change of a hog function, batch export or plugin config', async () => {
    const scopes = ['HogFunction', 'BatchExport', 'PluginConfig'];
    const answers = await Promise.all(
      scopes.map((scope) =>
        gql(
          `{ project(projectId: "1") { activityLog(first: 100, scope: "${scope}") { edges { node { scope detail } } } } }`,
        ),
      ),
    );
    for (const answer of answers) expect(answer.body.errors).toBeUndefined();
    const text = answers.map((a) => a.text).join('\n');
    expectNoneLeaked(text, 'activity-hog-');
    expectNoneLeaked(text, 'activity-batch-export-');
    expectNoneLeaked(text, 'activity-plugin-');
  });

  it('no planted value in any log line', () => {
    for (const line of gateway.logs) for (const [value] of leaking.planted) expect(line).not.toContain(value);
  });
});

describe('an upstream page that repeats an id', () => {
  it('gives one edge for it, and says so in one log line per process and route', async () => {
    leaking.duplicateFirstOn = /\/batch_exports\/$/;
    const query = '{ project(projectId: "1") { batchExports(first: 5) { edges { node { id } } } } }';
    const answers = [await gql(query), await gql(query)];
    leaking.duplicateFirstOn = null;
    for (const { body } of answers) {
      expect(body.errors).toBeUndefined();
      const ids = (
        body.data as { project: { batchExports: { edges: { node: { id: string } }[] } } }
      ).project.batchExports.edges.map((e) => e.node.id);
      expect(ids.length).toBe(5);
      expect(new Set(ids).size).toBe(ids.length);
    }
    const lines = gateway.logs.filter((line) => line.includes('duplicate'));
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line.route).toBe('/api/projects/:project_id/batch_exports/');
    expect(lines[0]).not.toContain('phx_');
  });
});
