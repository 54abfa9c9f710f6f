// When a client goes away, all of its upstream work stops: calls in flight are cut, and no call,
// retry or Retry-After wait starts afterwards. Read from the upstream's request log.

import type { RequestLogEntry } from 'posthog-emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';
import { holdRequests } from '../support/hold-requests.ts';
import { settle, until } from '../support/wait.ts';

describe('a client that goes away', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'spec' });
    // The key accepted already: a key's first call goes alone until PostHog has answered one.
    await h.gql('{ project(projectId: "1") { name } }');
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  /** Sends `query` and aborts it once `ready` holds for the request log. */
  async function abortWhen(query: string, ready: (log: RequestLogEntry[]) => boolean): Promise<void> {
    const controller = new AbortController();
    const pending = fetch(h.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
      body: JSON.stringify({ query }),
      signal: controller.signal,
    }).catch(() => 'aborted');
    await until(() => ready(h.upstreamCalls()), 'the calls to abort during', { everyMs: 5 });
    controller.abort();
    expect(await pending).toBe('aborted');
  }

  it('starts no retry after an abort during a retry backoff', async () => {
    h.upstream.faults.add({
      path: '/pipeline_destination_configs/4/',
      action: { kind: 'status', status: 503 },
    });
    await abortWhen(
      '{ project(projectId: "1") { destinationConfig(databaseId: 4) { name } } }',
      (log) => log.length === 1 && log[0]!.end > 0,
    );
    // Two retries would have started within 100–200 ms and 200–300 ms of the first answer.
    await settle(600);
    expect(h.upstreamCalls()).toHaveLength(1);
  });

  it('starts no retry after an abort during a 429 Retry-After wait', async () => {
    h.upstream.faults.add({
      path: '/pipeline_destination_configs/4/',
      action: { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
    });
    await abortWhen(
      '{ project(projectId: "1") { destinationConfig(databaseId: 4) { name } } }',
      (log) => log.length === 1 && log[0]!.end > 0,
    );
    await settle(1_300);
    expect(h.upstreamCalls()).toHaveLength(1);
  });

  it('starts no follow-on call (a cross-link, a config’s activity) after an abort, and cuts those in flight', async () => {
    // Every call held upstream, unanswered: the abort comes while the activity page and the
    // config list are in flight, before any follow-on could start.
    const upstream = holdRequests(h.upstream);
    const controller = new AbortController();
    const pending = fetch(h.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
      body: JSON.stringify({
        query: `{ project(projectId: "1") {
          activityLog(first: 10) { edges { node { destinationConfig { name } } } }
          destinationConfigs(first: 5) { edges { node { activity(first: 2) { edges { node { id } } } } } }
        } }`,
      }),
      signal: controller.signal,
    }).catch(() => 'aborted');
    await until(() => upstream.held() >= 2, 'the activity page and the config list upstream');
    controller.abort();
    expect(await pending).toBe('aborted');
    // The gateway cuts every call it had in flight; then no other call comes.
    await until(() => upstream.cut() === upstream.held(), 'the calls in flight cut');
    expect(upstream.cut()).toBeGreaterThanOrEqual(2);
    upstream.release();
    await settle(800);
    expect(h.upstreamCalls()).toEqual([]);
  });
});
