// MAX_ANSWER_BYTES: what an operation costs upstream does not bound its answer (aliases of one
// list are read once and answered once each), so one answer larger than the limit is refused with
// QUERY_TOO_COMPLEX (`answerBytes`) before it is serialized: over HTTP, over SSE for each answer of
// a live query, with either executor. The upstream is still asked once; the refusal is small.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawSse } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { until } from '../support/wait.ts';

const LIMIT = 64 * 1024;
const LIST = '/api/projects/1/pipeline_destination_configs/';
const aliased = (n: number) =>
  `{ project(projectId: "1") { ${Array.from({ length: n }, (_, i) => `a${i}: destinationConfigs(first: 10) { edges { node { name config } } }`).join(' ')} } }`;

describe.each([
  'compiled',
  'graphql-js',
])('answers over MAX_ANSWER_BYTES with the %s executor', (executor) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { MAX_ANSWER_BYTES: String(LIMIT), EXECUTOR: executor, LOG_LEVEL: 'silent' },
    });
    // The project's first configs, each made 4 KB: ten of them are 40 KB, under the limit once.
    const configs = [...h.upstream.store.configs.values()].filter((c) => c.projectId === 1 && !c.deleted);
    for (const [i, config] of configs.slice(0, 10).entries()) {
      config.config = { ...config.config, blob: `${i}`.padEnd(4_000, 'x') };
    }
  });
  afterAll(() => h.close());

  it('answers one list under the limit, and refuses thirty aliases of it after one upstream call', async () => {
    const one = await h.gql(aliased(1));
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data.project.a0.edges).toHaveLength(10);
    h.upstream.clearRequests();
    const thirty = await h.gql(aliased(30));
    expect(thirty.body.data ?? null).toBeNull();
    expect(thirty.body.errors[0].extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      measure: 'answerBytes',
      limit: LIMIT,
    });
    expect(JSON.stringify(thirty.body).length).toBeLessThan(2_000);
    expect(h.upstreamCalls({ path: LIST })).toHaveLength(1);
  });

  it('refuses each answer of a live query over the limit, over SSE', async () => {
    const live = rawSse(h, 'phx_full', `query @live ${aliased(30)}`, {});
    await live.ready;
    await until(() => live.events.length >= 1, 'the first answer');
    const first = JSON.parse(live.events[0]!);
    expect(first.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', measure: 'answerBytes' });
    expect(live.events[0]!.length).toBeLessThan(2_000);
    live.close();
    await until(() => h.live.slots.open === 0, 'the slot given back');
  });
});
