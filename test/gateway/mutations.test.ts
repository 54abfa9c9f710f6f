import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configId, DIALECTS, type Harness, startHarness } from '../support/harness.ts';

const MASK = '**************** POSTHOG SECRET FIELD ****************';
const CONFIG_FIELDS = 'id databaseId plugin order enabled name config pluginInfo deliveryRate24h';

describe.each(DIALECTS)('mutations, %s dialect', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const writes = () => h.upstreamCalls().filter((c) => c.method !== 'GET');
  const customKey = dialect === 'posthog' ? 'phx_legacy' : 'phx_full';

  it('creates a config with JSON when no config is given, and echoes clientMutationId', async () => {
    const { body } = await h.gql(
      `mutation($input: CreateDestinationConfigInput!) { createDestinationConfig(input: $input) {
        clientMutationId destinationConfig { ${CONFIG_FIELDS} filters } } }`,
      {
        input: {
          clientMutationId: 'c1',
          projectId: '1',
          plugin: 1,
          order: 3,
          name: 'Hook',
          enabled: true,
          filters: { a: 1 },
        },
      },
    );
    expect(body.errors).toBeUndefined();
    const payload = body.data.createDestinationConfig;
    expect(payload.clientMutationId).toBe('c1');
    expect(payload.destinationConfig).toMatchObject({
      plugin: 1,
      order: 3,
      name: 'Hook',
      enabled: true,
      filters: { a: 1 },
    });
    expect(payload.destinationConfig.id).toBe(configId('1', payload.destinationConfig.databaseId));
    expect(writes()).toHaveLength(1);
    expect(writes()[0]).toMatchObject({
      method: 'POST',
      path: '/api/projects/1/pipeline_destination_configs/',
      status: 201,
    });
  });

  it('sends config as a form field holding JSON, without the secret mask', async () => {
    const { body } = await h.gql(
      `mutation($input: UpdateDestinationConfigInput!) { updateDestinationConfig(input: $input) { destinationConfig { config name } } }`,
      {
        input: {
          id: configId('1', 1),
          name: 'Renamed',
          config: { s3BucketName: 'new-bucket', awsAccessKey: 'AK', awsSecretAccessKey: MASK },
        },
      },
    );
    expect(body.errors).toBeUndefined();
    const stored = h.upstream.store.configs.get(1)!;
    expect(stored.name).toBe('Renamed');
    if (dialect === 'posthog') {
      expect(stored.config).toEqual({
        s3BucketName: 'new-bucket',
        awsAccessKey: 'AK',
        awsSecretAccessKey: 's3-secret-1',
      });
      expect(body.data.updateDestinationConfig.destinationConfig.config.awsSecretAccessKey).toBe(MASK);
    }
    expect(writes()).toHaveLength(1);
  });

  it('refuses null for a field the upstream requires, and a config that is not an object, before any call', async () => {
    for (const input of [
      { id: configId('1', 1), enabled: null },
      { id: configId('1', 1), config: 'x' },
    ]) {
      const { body } = await h.gql(
        'mutation($input: UpdateDestinationConfigInput!) { updateDestinationConfig(input: $input) { clientMutationId } }',
        { input },
      );
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('maps the upstream’s validation error to BAD_USER_INPUT with the field', async () => {
    const { body } = await h.gql(
      'mutation($input: CreateDestinationConfigInput!) { createDestinationConfig(input: $input) { clientMutationId } }',
      { input: { projectId: '1', plugin: 999, order: 1 } },
    );
    expect(body.data.createDestinationConfig).toBeNull();
    expect(body.errors[0]).toMatchObject({
      message: 'Invalid pk "999" - object does not exist.',
      extensions: {
        code: 'BAD_USER_INPUT',
        field: 'plugin',
        upstream: { status: 400, code: 'does_not_exist' },
      },
    });
  });

  it('deletes a config and answers its global id', async () => {
    const id = configId('1', 5);
    const { body } = await h.gql(
      'mutation($input: DeleteDestinationConfigInput!) { deleteDestinationConfig(input: $input) { deletedId clientMutationId } }',
      { input: { id, clientMutationId: 'd' } },
    );
    expect(body.data.deleteDestinationConfig).toEqual({ deletedId: id, clientMutationId: 'd' });
    expect(writes()).toEqual([expect.objectContaining({ method: 'DELETE', status: 204 })]);
    if (dialect === 'posthog') expect(h.upstream.store.configs.get(5)!.enabled).toBe(false);
    else expect(h.upstream.store.configs.has(5)).toBe(false);
  });

  it('runs a job, re-reading the config when the upstream answers with an empty body', async () => {
    const { body } = await h.gql(
      `mutation($input: RunDestinationConfigJobInput!) { runDestinationConfigJob(input: $input) {
        clientMutationId destinationConfig { databaseId name } } }`,
      {
        input: {
          id: configId('1', 2),
          clientMutationId: 'j',
          job: { type: 'Export historical events', payload: { dateFrom: '2025-01-01' } },
        },
      },
      customKey,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.runDestinationConfigJob).toMatchObject({
      clientMutationId: 'j',
      destinationConfig: { databaseId: 2 },
    });
    const calls = h.upstreamCalls();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(calls.filter((c) => c.method === 'GET')).toHaveLength(dialect === 'posthog' ? 1 : 0);
    const entry = h.upstream.store.activity.at(-1)!;
    expect(entry).toMatchObject({ activity: 'job_triggered', item_id: '2' });
    if (dialect === 'posthog') {
      expect(entry.detail).toMatchObject({
        trigger: { job_type: 'Export historical events', operation: 'start' },
      });
    }
  });

  it('passes the upstream’s job errors on as BAD_USER_INPUT', async () => {
    if (dialect === 'spec') return;
    const { body } = await h.gql(
      'mutation($input: RunDestinationConfigJobInput!) { runDestinationConfigJob(input: $input) { clientMutationId } }',
      { input: { id: configId('1', 2), job: { type: 'No such job' } } },
      customKey,
    );
    expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(body.errors[0].message).toMatch(/No such job/);
  });

  it('rearranges, sending {"orders": {id: order}} and accepting a list or one config', async () => {
    const { body } = await h.gql(
      `mutation($input: RearrangeDestinationConfigsInput!) { rearrangeDestinationConfigs(input: $input) {
        clientMutationId destinationConfigs { databaseId order } } }`,
      {
        input: {
          projectId: '1',
          clientMutationId: 'r',
          orders: [
            { id: configId('1', 1), order: 77 },
            { id: configId('1', 2), order: 78 },
          ],
        },
      },
      customKey,
    );
    expect(body.errors).toBeUndefined();
    const configs = body.data.rearrangeDestinationConfigs.destinationConfigs;
    expect(configs.find((c: { databaseId: number }) => c.databaseId === 1)).toEqual({
      databaseId: 1,
      order: 77,
    });
    if (dialect === 'posthog') expect(configs.length).toBeGreaterThan(100);
    else expect(configs).toHaveLength(1);
    expect(h.upstream.store.configs.get(2)!.order).toBe(78);
  });

  it('refuses to rearrange a config of another project, before any call', async () => {
    const { body } = await h.gql(
      'mutation($input: RearrangeDestinationConfigsInput!) { rearrangeDestinationConfigs(input: $input) { clientMutationId } }',
      { input: { projectId: '1', orders: [{ id: configId('2', 156), order: 1 }] } },
      customKey,
    );
    expect(body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'orders[0].id' });
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('sends a write exactly once even when the upstream fails it', async () => {
    h.upstream.faults.add({
      path: 'pipeline_destination_configs',
      method: 'PATCH',
      action: { kind: 'status', status: 503 },
    });
    const { body } = await h.gql(
      'mutation($input: UpdateDestinationConfigInput!) { updateDestinationConfig(input: $input) { clientMutationId } }',
      { input: { id: configId('1', 1), name: 'x' } },
    );
    expect(body.errors[0].extensions.code).toBe('UPSTREAM_ERROR');
    expect(writes()).toHaveLength(1);
  });
});
