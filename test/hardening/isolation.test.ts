// 20 keys × 25 concurrent requests, mixed: every answer holds only what its key may see, and the
// upstream log shows each request carried its own caller's key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const KEYS = 20;
const PER_KEY = 25;
const QUERY = `{
  projects { edges { node { projectId name } } }
  project(projectId: "@current") { projectId destinationConfigs(first: 3) { totalCount edges { node { databaseId } } } }
}`;

describe('caller isolation under concurrency', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'spec' });
    for (let i = 0; i < KEYS; i++) {
      const inOrgB = i % 2 === 1;
      h.upstream.store.keys.set(`phx_iso_${i}`, {
        value: `phx_iso_${i}`,
        userId: inOrgB ? 4 : 1 + (i % 3),
        scopes: ['*'],
        currentProjectId: inOrgB ? 3 : 1 + ((i / 2) % 2),
      });
    }
  });
  afterAll(() => h.close());

  it('answers each caller with its own data only', async () => {
    const requests = Array.from({ length: KEYS * PER_KEY }, (_, n) => n % KEYS).map(async (i) => ({
      i,
      answer: await h.gql(QUERY, {}, `phx_iso_${i}`),
    }));
    const results = await Promise.all(requests);
    for (const { i, answer } of results) {
      expect(answer.body.errors).toBeUndefined();
      const inOrgB = i % 2 === 1;
      const current = inOrgB ? 3 : 1 + ((i / 2) % 2);
      const projects = answer.body.data.projects.edges.map(
        (e: { node: { projectId: string } }) => e.node.projectId,
      );
      expect(projects).toEqual(inOrgB ? ['3'] : ['1', '2']);
      const configs = answer.body.data.project.destinationConfigs;
      expect(configs.totalCount).toBe({ 1: 155, 2: 6, 3: 4 }[current]);
      const ids = configs.edges.map((e: { node: { databaseId: number } }) => e.node.databaseId);
      const owned = [...h.upstream.store.configs.values()]
        .filter((c) => c.projectId === current)
        .map((c) => c.id);
      for (const id of ids) expect(owned).toContain(id);
    }
    const calls = h.upstreamCalls();
    expect(calls).toHaveLength(KEYS * PER_KEY * 2);
    for (let i = 0; i < KEYS; i++) {
      expect(calls.filter((c) => c.authorization === `Bearer phx_iso_${i}`)).toHaveLength(PER_KEY * 2);
    }
    expect(calls.every((c) => c.status === 200)).toBe(true);
  });
});
