// Batch exports through the gateway (issue 40), against today's PostHog (the reference upstream's
// posthog-2026 dialect, seeded with exports of several destination types, 30 days of runs and
// backfills): the connections both ways, the 7-day run window and `since`, paging past 100 runs,
// the mutations' upstream requests, the concurrency 429, secrets, the merged destinations over all
// three kinds (and a key that may read two), the activity cross-link and the older dialects.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const exportUuid = (n: number) => `018f0a5e-0020-7000-8000-${n.toString(16).padStart(12, '0')}`;
const S3_HOURLY = exportUuid(1);
const BIGQUERY = exportUuid(2);
const PAUSED = exportUuid(5);
const WORKFLOWS = exportUuid(8);
const EXPORTS = '/api/projects/1/batch_exports/';
/** Seeded secret values: any of these in an answer is a leak. */
const SECRET_TEXT = /batch-secret|bq-seed-secret|bq-key-id-secret|seed-password|seed-user/;
const globalId = (typename: string, ...parts: string[]) =>
  Buffer.from(`${typename}:${parts.join(':')}`).toString('base64');

describe('batch exports, posthog-2026 dialect', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('pages the exports both ways with totalCount, one call a page, no Workflows or deleted export', async () => {
    const names: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 5; pages++) {
      const { body } = await h.gql(
        'query($after: String) { project(projectId: "1") { batchExports(first: 4, after: $after) { totalCount edges { node { uuid name enabled paused destinationType } } pageInfo { hasNextPage endCursor } } } }',
        { after },
      );
      expect(body.errors).toBeUndefined();
      const c = body.data.project.batchExports;
      expect(c.totalCount).toBe(6);
      names.push(...c.edges.map((e: { node: { name: string } }) => e.node.name));
      for (const e of c.edges) expect(e.node.enabled).toBe(!e.node.paused);
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(names).toHaveLength(6);
    expect(names).not.toContain('Webhook to ops backfills');
    expect(names).not.toContain('Redshift (deleted)');
    expect(h.upstreamCalls({ path: EXPORTS })).toHaveLength(2);
    const last = await h.gql(
      '{ project(projectId: "1") { batchExports(last: 2) { edges { node { name } } pageInfo { hasPreviousPage } } } }',
    );
    expect(
      last.body.data.project.batchExports.edges.map((e: { node: { name: string } }) => e.node.name),
    ).toEqual(names.slice(-2));
  });

  it('reads one export by uuid and by global id, with its latest runs and no secret', async () => {
    const q = `{ project(projectId: "1") { batchExport(uuid: "${BIGQUERY}") { id uuid model interval destinationType destinationConfig latestRuns { uuid status } } } }`;
    const { body } = await h.gql(q);
    const e = body.data.project.batchExport;
    expect(e).toMatchObject({ uuid: BIGQUERY, destinationType: 'BigQuery', interval: 'day' });
    expect(e.destinationConfig).toMatchObject({ project_id: 'hedgebox-analytics', dataset_id: 'posthog' });
    expect(e.latestRuns.length).toBeGreaterThan(0);
    expect(e.latestRuns.length).toBeLessThanOrEqual(10);
    const node = await h.gql('query($id: ID!) { node(id: $id) { ... on BatchExport { uuid } } }', {
      id: e.id,
    });
    expect(node.body.data.node.uuid).toBe(BIGQUERY);
    expect(JSON.stringify(body)).not.toMatch(SECRET_TEXT);
    const none = await h.gql(
      `{ project(projectId: "1") { batchExport(uuid: "${exportUuid(999)}") { uuid } workflows: batchExport(uuid: "${WORKFLOWS}") { destinationType } } }`,
    );
    expect(none.body.data.project.batchExport).toBeNull();
    // PostHog hides its internal Workflows exports from the list, not from a retrieve.
    expect(none.body.data.project.workflows).toEqual({ destinationType: 'Workflows' });
  });

  it('lists runs of the last 7 days by default, pages past 100 runs, and reaches back with since', async () => {
    const q = `query($after: String, $since: DateTime) { project(projectId: "1") { batchExport(uuid: "${S3_HOURLY}") {
      runs(first: 100, after: $after, since: $since) { edges { node { uuid createdAt status } } pageInfo { hasNextPage endCursor } }
    } } }`;
    const weekAgo = Date.now() - 7 * 86_400_000;
    const seen: { createdAt: string }[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 5; pages++) {
      const { body } = await h.gql(q, { after });
      expect(body.errors).toBeUndefined();
      const runs = body.data.project.batchExport.runs;
      seen.push(...runs.edges.map((e: { node: { createdAt: string } }) => e.node));
      if (!runs.pageInfo.hasNextPage) break;
      after = runs.pageInfo.endCursor;
    }
    expect(seen.length).toBeGreaterThan(100);
    expect(seen.every((r) => Date.parse(r.createdAt) >= weekAgo - 3_600_000)).toBe(true);
    expect(new Set(seen.map((r) => JSON.stringify(r))).size).toBe(seen.length);
    const since = new Date(Date.now() - 20 * 86_400_000).toISOString();
    const older = await h.gql(q, { since });
    const oldest = older.body.data.project.batchExport.runs.edges;
    expect(oldest).toHaveLength(100);
    const runCalls = h.upstreamCalls().filter((c) => c.path.endsWith('/runs/'));
    expect(new URLSearchParams(runCalls.at(-1)!.query).get('after')).toBe(since);
  });

  it('reads backfills and a run’s backfill, each a Node', async () => {
    const { body } = await h.gql(
      `{ project(projectId: "1") { batchExport(uuid: "${S3_HOURLY}") { backfills(first: 5) { edges { node { id uuid status progress { totalRuns finishedRuns progress } batchExport { uuid } } } } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const backfills = body.data.project.batchExport.backfills.edges.map((e: { node: unknown }) => e.node);
    expect(backfills.length).toBeGreaterThan(0);
    for (const b of backfills) expect(b.batchExport.uuid).toBe(S3_HOURLY);
    const node = await h.gql('query($id: ID!) { node(id: $id) { ... on BatchExportBackfill { uuid } } }', {
      id: backfills[0].id,
    });
    expect(node.body.data.node.uuid).toBe(backfills[0].uuid);
  });

  it('sends each mutation as PostHog takes it, omitted fields omitted', async () => {
    const created = await h.gql(
      `mutation { createBatchExport(input: {projectId: "1", name: "Nightly S3", destinationType: "AwsS3", integrationId: 1,
        destinationConfig: {bucket_name: "nightly", region: "us-east-1", prefix: "x/", compression: "gzip", file_format: "Parquet"},
        interval: "day"}) { batchExport { id uuid name paused interval } } }`,
    );
    expect(created.body.errors).toBeUndefined();
    const fresh = created.body.data.createBatchExport.batchExport;
    expect(h.upstreamCalls({ method: 'POST' }).map((c) => c.body)).toEqual([
      {
        name: 'Nightly S3',
        interval: 'day',
        destination: {
          type: 'AwsS3',
          config: {
            bucket_name: 'nightly',
            region: 'us-east-1',
            prefix: 'x/',
            compression: 'gzip',
            file_format: 'Parquet',
          },
          integration_id: 1,
        },
      },
    ]);
    h.upstream.clearRequests();
    const renamed = await h.gql(
      `mutation($id: ID!) { updateBatchExport(input: {id: $id, name: "Nightly S3 (EU)", destinationConfig: {region: "eu-west-1"}, offsetHour: 3}) { batchExport { name interval offsetHour destinationConfig } } }`,
      { id: fresh.id },
    );
    expect(renamed.body.errors).toBeUndefined();
    expect(renamed.body.data.updateBatchExport.batchExport).toMatchObject({
      name: 'Nightly S3 (EU)',
      offsetHour: 3,
    });
    // The stored type goes with the config, and the stored interval with the offset (PostHog needs both).
    expect(h.upstreamCalls({ method: 'PATCH' }).map((c) => c.body)).toEqual([
      {
        name: 'Nightly S3 (EU)',
        offset_hour: 3,
        interval: 'day',
        destination: { type: 'AwsS3', config: { region: 'eu-west-1' } },
      },
    ]);
    h.upstream.clearRequests();
    const paused = await h.gql(
      'mutation($id: ID!) { pauseBatchExport(input: {id: $id}) { batchExport { paused enabled } } }',
      { id: fresh.id },
    );
    expect(paused.body.data.pauseBatchExport.batchExport).toEqual({ paused: true, enabled: false });
    const unpaused = await h.gql(
      'mutation($id: ID!) { unpauseBatchExport(input: {id: $id, backfill: false}) { batchExport { paused } } }',
      { id: fresh.id },
    );
    expect(unpaused.body.data.unpauseBatchExport.batchExport).toEqual({ paused: false });
    expect(h.upstreamCalls({ method: 'POST' }).map((c) => [c.path, c.body])).toEqual([
      [`${EXPORTS}${fresh.uuid}/pause/`, {}],
      [`${EXPORTS}${fresh.uuid}/unpause/`, { backfill: false }],
    ]);
    const deleted = await h.gql('mutation($id: ID!) { deleteBatchExport(input: {id: $id}) { deletedId } }', {
      id: fresh.id,
    });
    expect(deleted.body.data.deleteBatchExport.deletedId).toBe(fresh.id);
    const gone = await h.gql(`{ project(projectId: "1") { batchExport(uuid: "${fresh.uuid}") { uuid } } }`);
    expect(gone.body.data.project.batchExport).toBeNull();
  });

  it('starts, cancels and refuses backfills; the concurrency 429 pauses nothing and is not retried', async () => {
    const h2 = await startHarness({
      dialect: 'posthog-2026',
      env: { UPSTREAM_BUDGET_PER_MINUTE: '480', UPSTREAM_BUDGET_PER_HOUR: '4800' },
    });
    try {
      const start = async (day: number) =>
        h2.gql(
          `mutation($id: ID!) { createBatchExportBackfill(input: {id: $id, startAt: "2026-10-0${day}T00:00:00Z", endAt: "2026-10-0${day + 1}T00:00:00Z"}) { backfill { id uuid status startAt } } }`,
          { id: globalId('BatchExport', '1', BIGQUERY) },
        );
      const first = await start(1);
      expect(first.body.errors).toBeUndefined();
      expect(first.body.data.createBatchExportBackfill.backfill.status).toBe('Starting');
      // Two were running already: this one is the third of three.
      h2.upstream.clearRequests();
      const refused = await start(3);
      expect(refused.body.errors[0].extensions).toMatchObject({
        code: 'CONCURRENCY_LIMITED',
        upstream: { status: 429, code: 'too_many_concurrent_backfills' },
      });
      expect(refused.body.errors[0].extensions.retryAfter).toBeUndefined();
      expect(refused.body.errors[0].message).toMatch(/already has 3 batch export backfills running/);
      expect(h2.upstreamCalls({ method: 'POST' })).toHaveLength(1);
      // No pause of the key: its next call goes out at once.
      const read = await h2.gql(`{ project(projectId: "1") { batchExport(uuid: "${BIGQUERY}") { name } } }`);
      expect(read.body.errors).toBeUndefined();
      const cancelled = await h2.gql(
        'mutation($id: ID!) { cancelBatchExportBackfill(input: {id: $id}) { backfill { uuid status } } }',
        { id: first.body.data.createBatchExportBackfill.backfill.id },
      );
      expect(cancelled.body.data.cancelBatchExportBackfill.backfill.status).toBe('Cancelled');
      const again = await start(5);
      expect(again.body.errors).toBeUndefined();
    } finally {
      await h2.close();
    }
  });

  it('retries a run (a backfill) and refuses to cancel a finished one with PostHog’s words', async () => {
    const { body } = await h.gql(
      `{ project(projectId: "1") { batchExport(uuid: "${S3_HOURLY}") { runs(first: 5, status: ["Completed"]) { edges { node { id uuid status } } } } } }`,
    );
    const run = body.data.project.batchExport.runs.edges[0].node;
    expect(run.status).toBe('Completed');
    const cancel = await h.gql(
      'mutation($id: ID!) { cancelBatchExportRun(input: {id: $id}) { run { status } } }',
      {
        id: run.id,
      },
    );
    expect(cancel.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(cancel.body.errors[0].message).toBe("Cannot cancel a run that is in 'Completed' status");
    const retried = await h.gql(
      'mutation($id: ID!) { retryBatchExportRun(input: {id: $id}) { backfill { uuid batchExport { uuid } } } }',
      { id: run.id },
    );
    expect(retried.body.errors).toBeUndefined();
    expect(retried.body.data.retryBatchExportRun.backfill.batchExport.uuid).toBe(S3_HOURLY);
  });

  it('refuses a sub-hour interval as a feature not enabled, apart from a missing scope', async () => {
    const { body } = await h.gql(
      'mutation { createBatchExport(input: {projectId: "1", name: "Fast", destinationType: "AwsS3", integrationId: 1, destinationConfig: {bucket_name: "b", region: "eu-west-1", prefix: "p"}, interval: "every 5 minutes"}) { batchExport { uuid } } }',
    );
    expect(body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'FEATURE_NOT_ENABLED' });
    expect(body.errors[0].message).toBe('Higher frequency batch exports are not enabled for this team.');
    const scoped = await h.gql(
      '{ project(projectId: "1") { batchExports(first: 1) { totalCount } } }',
      {},
      'phx_hog_rw',
    );
    expect(scoped.body.errors[0].extensions).toMatchObject({
      code: 'FORBIDDEN',
      requiredScope: 'batch_export:read',
    });
  });

  it('offers no logs of an export or a run: PostHog refuses them to every personal API key', async () => {
    const logs = await fetch(`${h.upstream.url}${EXPORTS}${S3_HOURLY}/logs/`, {
      headers: { authorization: 'Bearer phx_full' },
    });
    expect(logs.status).toBe(403);
    const { body } = await h.gql(
      '{ e: __type(name: "BatchExport") { fields { name } } r: __type(name: "BatchExportRun") { fields { name } } }',
    );
    for (const type of [body.data.e, body.data.r])
      expect(type.fields.map((f: { name: string }) => f.name)).not.toContain('logs');
  });

  it('links activity entries to their exports, in one list call for the page', async () => {
    const { body } = await h.gql(
      '{ project(projectId: "1") { activityLog(first: 100, scope: "BatchExport") { edges { node { itemId batchExport { uuid name } } } } } }',
    );
    expect(body.errors).toBeUndefined();
    const edges = body.data.project.activityLog.edges.filter(
      (e: { node: { batchExport: unknown } }) => e.node.batchExport !== null,
    );
    expect(edges.length).toBeGreaterThanOrEqual(5);
    for (const e of edges) expect(e.node.batchExport.uuid).toBe(e.node.itemId);
    // The page, one list of exports, and a retrieve of each export the list leaves out (the deleted
    // one, 404 and so null, and the Workflows one).
    expect(h.upstreamCalls().map((c) => c.path)).toEqual([
      '/api/projects/1/activity_log/',
      EXPORTS,
      `${EXPORTS}${exportUuid(7)}/`,
      `${EXPORTS}${WORKFLOWS}/`,
    ]);
  });
});

describe('Project.destinations over all three kinds', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());

  const Q = `query($first: Int, $after: String, $kinds: [DestinationKind!], $enabled: Boolean) {
    project(projectId: "1") { destinations(first: $first, after: $after, kinds: $kinds, enabled: $enabled) {
      totalCount edges { node { __typename id name enabled } } pageInfo { hasNextPage endCursor }
    } }
  }`;
  const walk = async (variables: Record<string, unknown>, key?: string) => {
    const nodes: { __typename: string; id: string; enabled: boolean }[] = [];
    let after: string | null = null;
    let errors: unknown[] = [];
    let total = 0;
    for (let pages = 0; pages < 20; pages++) {
      const { body } = await h.gql(Q, { ...variables, first: 40, after }, key);
      errors = body.errors ?? [];
      const c = body.data.project.destinations;
      total = c.totalCount;
      nodes.push(...c.edges.map((e: { node: never }) => e.node));
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    return { nodes, errors, total };
  };

  it('lists every kind by default, batch exports last, with cursors valid across kinds', async () => {
    const { nodes, errors, total } = await walk({});
    expect(errors).toEqual([]);
    expect(nodes).toHaveLength(total);
    expect(new Set(nodes.map((n) => n.id)).size).toBe(total);
    const kinds = nodes.map((n) => n.__typename);
    expect(kinds.filter((k) => k === 'BatchExport')).toHaveLength(6);
    expect(kinds.lastIndexOf('DestinationConfig')).toBeLessThan(kinds.indexOf('BatchExport'));
    const batch = await walk({ kinds: ['BATCH_EXPORT'] });
    expect(batch.nodes.map((n) => n.__typename)).toEqual(Array(6).fill('BatchExport'));
    const two = await walk({ kinds: ['HOG_FUNCTION', 'BATCH_EXPORT'] });
    expect(new Set(two.nodes.map((n) => n.__typename))).toEqual(new Set(['HogFunction', 'BatchExport']));
    const paused = await walk({ kinds: ['BATCH_EXPORT'], enabled: false });
    expect(paused.nodes.map((n) => n.id)).toEqual([globalId('BatchExport', '1', PAUSED)]);
  });

  it('gives a key the kinds it may read, and says which kind it may not, at the connection', async () => {
    const { nodes, errors } = await walk({}, 'phx_hog_rw');
    expect(nodes.length).toBeGreaterThan(0);
    expect(nodes.some((n) => n.__typename === 'BatchExport')).toBe(false);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      path: ['project', 'destinations'],
      extensions: { code: 'FORBIDDEN', kind: 'BATCH_EXPORT', requiredScope: 'batch_export:read' },
    });
  });

  it('answers no secret of any kind, even from an upstream that leaks them', async () => {
    const leaky = await startHarness({ dialect: 'posthog-2026', upstream: { leakSecrets: true } });
    try {
      const direct = await fetch(`${leaky.upstream.url}${EXPORTS}${BIGQUERY}/`, {
        headers: { authorization: 'Bearer phx_full' },
      });
      expect(await direct.text()).toMatch(SECRET_TEXT);
      const { body } = await leaky.gql(
        `{ project(projectId: "1") { destinations(first: 100, kinds: [BATCH_EXPORT]) { edges { node { ... on BatchExport { destinationConfig latestRuns { latestError } } } } } } }`,
      );
      expect(body.errors).toBeUndefined();
      const configs = body.data.project.destinations.edges.map(
        (e: { node: { destinationConfig: Record<string, unknown> } }) => e.node.destinationConfig,
      );
      expect(configs.find((c: Record<string, unknown>) => 'private_key' in c).private_key).toEqual({
        secret: true,
      });
      expect(JSON.stringify(body)).not.toMatch(SECRET_TEXT);
      for (const line of leaky.logs) expect(line).not.toMatch(SECRET_TEXT);
    } finally {
      await leaky.close();
    }
  });
});

describe('batch exports against an upstream without them (mid-2024 PostHog)', () => {
  it('lists destinations without batch exports and without an error', async () => {
    const h = await startHarness({ dialect: 'posthog' });
    try {
      const { body } = await h.gql(
        '{ project(projectId: "1") { destinations(first: 5) { totalCount edges { node { __typename } } } } }',
      );
      expect(body.errors).toBeUndefined();
      expect(body.data.project.destinations.totalCount).toBeGreaterThan(0);
      const batch = await h.gql('{ project(projectId: "1") { batchExports(first: 5) { totalCount } } }');
      expect(batch.body.errors[0].extensions.code).toBe('UPSTREAM_UNSUPPORTED');
    } finally {
      await h.close();
    }
  });
});
