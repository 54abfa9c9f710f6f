// Honest write outcomes: a write cut after it may have reached the upstream says its outcome is
// unknown (and to re-read before retrying); a write the upstream confirmed is answered as applied
// even when reading its result back fails; writes are still sent exactly once.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configId, type Harness, startHarness } from '../support/harness.ts';
import { settle } from '../support/wait.ts';

const CREATE = `mutation($input: CreateDestinationConfigInput!) {
  createDestinationConfig(input: $input) { destinationConfig { databaseId } }
}`;
const UPDATE = `mutation($input: UpdateDestinationConfigInput!) {
  updateDestinationConfig(input: $input) { destinationConfig { name } }
}`;
const RUN_JOB = `mutation($input: RunDestinationConfigJobInput!) {
  runDestinationConfigJob(input: $input) { clientMutationId destinationConfig { databaseId name } }
}`;

describe('write outcomes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog', env: { REQUEST_DEADLINE_MS: '400' } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const writes = () => h.upstreamCalls().filter((c) => c.method !== 'GET');

  it('says "unknown" when the request deadline cuts a create the upstream then applies', async () => {
    const before = h.upstream.store.configs.size;
    h.upstream.faults.add({
      path: '/pipeline_destination_configs/',
      method: 'POST',
      action: { kind: 'delay', ms: 600 },
    });
    const { body } = await h.gql(CREATE, { input: { projectId: '1', plugin: 1, order: 9, name: 'Slow' } });
    expect(body.data.createDestinationConfig).toBeNull();
    expect(body.errors[0].extensions).toMatchObject({ code: 'UPSTREAM_TIMEOUT', writeOutcome: 'unknown' });
    expect(body.errors[0].message).toMatch(/read it again before retrying/);
    await settle(400);
    // The upstream did apply it, once: retrying blindly would have made a second one.
    expect(h.upstream.store.configs.size).toBe(before + 1);
    expect(writes()).toHaveLength(1);
  });

  it('says "unknown" when the connection is lost after an update was sent, and when the upstream answers 5xx', async () => {
    h.upstream.faults.add({
      path: '/pipeline_destination_configs/2/',
      method: 'PATCH',
      action: { kind: 'reset' },
      times: 1,
    });
    const reset = await h.gql(UPDATE, { input: { id: configId('1', 2), name: 'x' } });
    expect(reset.body.errors[0].extensions).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      writeOutcome: 'unknown',
    });
    h.upstream.faults.add({
      path: '/pipeline_destination_configs/2/',
      method: 'PATCH',
      action: { kind: 'status', status: 502 },
      times: 1,
    });
    const proxy = await h.gql(UPDATE, { input: { id: configId('1', 2), name: 'x' } });
    expect(proxy.body.errors[0].extensions).toMatchObject({
      code: 'UPSTREAM_ERROR',
      writeOutcome: 'unknown',
    });
    expect(writes()).toHaveLength(2);
  });

  it('says nothing of the outcome when the upstream refused the write (4xx), or was never reached', async () => {
    const refused = await h.gql(CREATE, { input: { projectId: '1', plugin: 99999, order: 1 } });
    expect(refused.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(refused.body.errors[0].extensions.writeOutcome).toBeUndefined();
    const closed = await startHarness({ env: { UPSTREAM_RETRIES: '0' } });
    try {
      await closed.upstream.close();
      const never = await closed.gql(CREATE, { input: { projectId: '1', plugin: 1, order: 1 } });
      expect(never.body.errors[0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(never.body.errors[0].extensions.writeOutcome).toBeUndefined();
    } finally {
      await closed.close().catch(() => undefined);
    }
  });

  it('answers a job the upstream accepted as applied when reading the config back fails, and queues it once', async () => {
    h.upstream.faults.add({
      path: '/pipeline_destination_configs/2/',
      method: 'GET',
      action: { kind: 'status', status: 500 },
    });
    const { body } = await h.gql(
      RUN_JOB,
      { input: { id: configId('1', 2), clientMutationId: 'j1', job: { type: 'Export historical events' } } },
      'phx_legacy',
    );
    const [error] = body.errors;
    expect(error.path).toEqual(['runDestinationConfigJob', 'destinationConfig']);
    expect(error.extensions).toMatchObject({ code: 'UPSTREAM_ERROR', writeOutcome: 'applied' });
    expect(error.message).toMatch(
      /^The job was queued, but reading the config back failed: .* Do not repeat it\.$/,
    );
    expect(writes()).toEqual([expect.objectContaining({ method: 'POST', status: 200 })]);
    expect(h.upstream.store.activity.at(-1)).toMatchObject({ activity: 'job_triggered', item_id: '2' });
  });
});
