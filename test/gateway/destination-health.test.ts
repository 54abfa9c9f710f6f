// Destination.health: one shape for each kind, read from the lists the page already reads (no
// call of its own): a hog function by the hog watcher's state, a batch export by its pause and
// latest finished run, a plugin config by `enabled` and its `error`.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const Q = `query($kinds: [DestinationKind!], $health: Boolean!) {
  project(projectId: "1") { destinations(first: 100, kinds: $kinds) { edges { node {
    __typename name health @include(if: $health) { state reason since }
    ... on HogFunction { uuid } ... on BatchExport { uuid } ... on DestinationConfig { databaseId }
  } } } }
}`;
const S3 = '018f0a5e-0020-7000-8000-000000000001';

interface Node {
  __typename: string;
  uuid?: string;
  databaseId?: number;
  name: string;
  health: { state: string; reason: string; since: string | null };
}

/** The page's nodes, and the upstream calls it made with and without `health` (warm). */
async function pageOf(h: Harness, kinds: string[]) {
  // Once before counting: what a key's loaders keep across requests (plugins) is read then.
  await h.gql(Q, { kinds, health: false });
  h.upstream.clearRequests();
  const plain = await h.gql(Q, { kinds, health: false });
  expect(plain.body.errors).toBeUndefined();
  const without = h.upstreamCalls().length;
  h.upstream.clearRequests();
  const { body } = await h.gql(Q, { kinds, health: true });
  expect(body.errors).toBeUndefined();
  const nodes = body.data.project.destinations.edges.map((e: { node: Node }) => e.node) as Node[];
  return { nodes, calls: h.upstreamCalls().length, without };
}

describe('Destination.health', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.upstream.reset();
    h.upstream.clearRequests();
  });

  const control = (path: string, json: unknown) =>
    fetch(new URL(path, h.upstream.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(json),
    }).then((r) => expect(r.ok).toBe(true));

  const page = (kinds: string[]) => pageOf(h, kinds);

  it('a hog function: healthy, degraded, disabled by the watcher, paused; no call of its own', async () => {
    const fns = [...h.upstream.store.hogFunctions.values()].filter(
      (f) =>
        f.projectId === 1 &&
        f.enabled &&
        !f.deleted &&
        ['destination', 'site_destination', 'legacy_destination'].includes(f.type),
    );
    const [healthy, degraded, disabled] = fns;
    await control('/__control/hog-function-status', { id: degraded!.id, state: 2 });
    await control('/__control/hog-function-status', { id: disabled!.id, state: 3 });
    const { nodes, calls, without } = await page(['HOG_FUNCTION']);
    expect(calls).toBe(without);
    expect(calls).toBe(1);
    const of = (id: string) => nodes.find((n) => n.uuid === id)!.health;
    expect(of(healthy!.id)).toEqual({ state: 'HEALTHY', reason: expect.any(String), since: null });
    expect(of(degraded!.id).state).toBe('DEGRADED');
    expect(of(disabled!.id)).toMatchObject({ state: 'DISABLED', reason: expect.stringMatching(/watcher/) });
    const paused = nodes.find((n) => n.__typename === 'HogFunction' && n.name.includes('off'))!;
    expect(paused.health).toEqual({ state: 'DISABLED', reason: 'The function is paused.', since: null });
  });

  it('a batch export: healthy, failing since its first failed run, paused; no call of its own', async () => {
    await control('/__control/batch-export-run', { batchExportId: S3, status: 'Completed' });
    const before = await page(['BATCH_EXPORT']);
    expect(before.calls).toBe(before.without);
    const s3 = () => before.nodes.find((n) => n.uuid === S3)!.health;
    expect(s3().state).toBe('HEALTHY');
    const paused = before.nodes.find((n) => n.health.state === 'DISABLED')!;
    expect(paused.health.reason).toBe('The export is paused.');
    expect(paused.health.since).not.toBeNull();

    await control('/__control/batch-export-run', {
      batchExportId: S3,
      status: 'Failed',
      latestError: 'NoSuchBucket',
    });
    await control('/__control/batch-export-run', { batchExportId: S3, status: 'TimedOut' });
    const after = await page(['BATCH_EXPORT']);
    expect(after.calls).toBe(1);
    const failing = after.nodes.find((n) => n.uuid === S3)!.health;
    expect(failing.state).toBe('FAILING');
    expect(failing.reason).toBe('Its latest run TimedOut.');
    const runs = [...h.upstream.store.batchExports.runs.values()].filter(
      (r) => r.latestError === 'NoSuchBucket',
    );
    expect(Date.parse(failing.since!) * 1000).toBe(Math.floor(runs[0]!.finishedAtMicros! / 1000) * 1000);
  });
});

// PostHog 2026 answers a config's `error` as null; the spec's dialect answers its text.
describe('Destination.health of a plugin config', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'spec' });
  });
  afterAll(() => h.close());

  it('healthy, failing on its error, disabled; no call of its own', async () => {
    const configs = [...h.upstream.store.configs.values()].filter((c) => c.projectId === 1);
    const failing = configs.find((c) => c.enabled && c.error);
    expect(failing).toBeDefined();
    const { nodes, calls, without } = await pageOf(h, ['PLUGIN_CONFIG']);
    expect(calls).toBe(without);
    expect(nodes.some((n) => n.health.state === 'DISABLED')).toBe(true);
    expect(nodes.some((n) => n.health.state === 'HEALTHY')).toBe(true);
    for (const node of nodes) {
      const config = configs.find((c) => c.id === node.databaseId)!;
      const state = !config.enabled ? 'DISABLED' : config.error ? 'FAILING' : 'HEALTHY';
      expect(node.health.state).toBe(state);
    }
    expect(nodes.find((n) => n.databaseId === failing!.id)!.health).toEqual({
      state: 'FAILING',
      reason: `The plugin reports: ${failing!.error}`,
      since: null,
    });
  });
});
