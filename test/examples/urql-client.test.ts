// examples/urql-client.ts against a gateway in front of today's PostHog: the hog functions of a
// project (a query urql sends as GET), and a mutation (POST) that the next query shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUrqlClient, hogFunctions, setEnabled } from '../../examples/urql-client.ts';
import { type Harness, startHarness } from '../support/harness.ts';

describe('examples/urql-client.ts', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());

  it('lists hog functions and pauses one', async () => {
    const client = createUrqlClient(h.url, 'phx_full');
    const before = await hogFunctions(client, '1');
    const enabled = before.find((fn) => fn.enabled)!;
    expect(enabled).toBeDefined();
    expect(await setEnabled(client, enabled.id, false)).toEqual({
      id: enabled.id,
      enabled: false,
      __typename: 'HogFunction',
    });
    const after = await hogFunctions(client, '1');
    expect(after.find((fn) => fn.id === enabled.id)!.enabled).toBe(false);
    expect(h.upstreamCalls({ method: 'PATCH' })).toHaveLength(1);
  });
});
