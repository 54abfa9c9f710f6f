// The GraphQL-over-HTTP audit (graphql-http's serverAudits): every MUST and SHOULD passes.
import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

describe('the GraphQL-over-HTTP audit', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('passes every MUST and SHOULD', async () => {
    const audits = serverAudits({ url: () => h.url, fetchFn: fetch });
    // Each result carries its audit's name; status is ok, warn (a SHOULD missed) or error.
    const results = await Promise.all(audits.map((audit) => audit.fn()));
    const failed = results.filter((r) => /^(MUST|SHOULD)/.test(r.name) && r.status !== 'ok');
    expect(failed.map((r) => `${r.name}: ${r.status} ${'reason' in r ? r.reason : ''}`)).toEqual([]);
    expect(results.filter((r) => /^MUST/.test(r.name)).length).toBeGreaterThan(10);
    // Nothing the audit sends reaches the upstream (it carries no key, and asks for __typename).
    expect(h.upstreamCalls()).toHaveLength(0);
  });
});
