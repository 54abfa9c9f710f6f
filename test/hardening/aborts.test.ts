// When a client goes away, all of its upstream work stops: calls in flight are cut, and no call,
// retry or Retry-After wait starts afterwards. Read from the upstream's request log.

import type { RequestLogEntry } from 'posthog-emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';
import { settle } from '../support/wait.ts';

const now = () => performance.timeOrigin + performance.now();

describe('a client that goes away', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'spec' });
    // The key accepted already: a key's first call goes alone until PostHog has answered one.
    await h.gql('{ project(projectId: "1") { name } }');
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  /** Sends `query`, aborts it once `ready` holds for the request log, and says when it aborted. */
  async function abortWhen(query: string, ready: (log: RequestLogEntry[]) => boolean): Promise<number> {
    const controller = new AbortController();
    const pending = fetch(h.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
      body: JSON.stringify({ query }),
      signal: controller.signal,
    }).catch(() => 'aborted');
    while (!ready(h.upstreamCalls())) await settle(5);
    const abortedAt = now();
    controller.abort();
    expect(await pending).toBe('aborted');
    return abortedAt;
  }

  /** Nothing may start after the abort (a few ms for the disconnect to reach the gateway). */
  const startedAfter = (abortedAt: number) => h.upstreamCalls().filter((c) => c.start > abortedAt + 20);

  it('starts no retry after an abort during a retry backoff', async () => {
    h.upstream.faults.add({
      path: '/pipeline_destination_configs/4/',
      action: { kind: 'status', status: 503 },
    });
    const abortedAt = await abortWhen(
      '{ project(projectId: "1") { destinationConfig(databaseId: 4) { name } } }',
      (log) => log.length === 1 && log[0]!.end > 0,
    );
    // Two retries would have started within 100–200 ms and 200–300 ms of the first answer.
    await settle(600);
    expect(h.upstreamCalls()).toHaveLength(1);
    expect(startedAfter(abortedAt)).toEqual([]);
  });

  it('starts no retry after an abort during a 429 Retry-After wait', async () => {
    h.upstream.faults.add({
      path: '/pipeline_destination_configs/4/',
      action: { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
    });
    const abortedAt = await abortWhen(
      '{ project(projectId: "1") { destinationConfig(databaseId: 4) { name } } }',
      (log) => log.length === 1 && log[0]!.end > 0,
    );
    await settle(1_300);
    expect(h.upstreamCalls()).toHaveLength(1);
    expect(startedAfter(abortedAt)).toEqual([]);
  });

  it('starts no follow-on call (a cross-link, a config’s activity) after an abort, and cuts those in flight', async () => {
    h.upstream.faults.latency = { latencyMs: 200, jitterMs: 0 };
    const abortedAt = await abortWhen(
      `{ project(projectId: "1") {
          activityLog(first: 10) { edges { node { destinationConfig { name } } } }
          destinationConfigs(first: 5) { edges { node { activity(first: 2) { edges { node { id } } } } } }
      } }`,
      (log) => log.length >= 2,
    );
    await settle(800);
    expect(startedAfter(abortedAt)).toEqual([]);
    // The activity page and the config list were in flight: cut, so their follow-ons never began.
    expect(h.upstreamCalls().filter((c) => c.status === null).length).toBeGreaterThanOrEqual(2);
  });
});
