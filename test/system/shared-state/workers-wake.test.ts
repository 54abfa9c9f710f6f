// WORKERS=2 without Redis: a write through one worker wakes the subscriptions held by the other
// (through the primary, over IPC). The poll interval is an hour, so only the relayed wake-up can
// bring the entry. Streams are opened until both workers hold one (each worker's poller reads the
// log once, its baseline: two reads), so the write lands on the other worker than some of them.

import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { subscribe } from '../../support/clients.ts';
import { configId, type Harness } from '../../support/harness.ts';
import { type GatewayProcess, startGatewayProcess } from '../../support/redis-server.ts';
import { settle } from '../../support/wait.ts';

const ACTIVITY = 'subscription { activityAdded(projectId: "1") { activity itemId } }';
const RENAME = `mutation($id: ID!) {
  updateDestinationConfig(input: { id: $id, name: "Renamed on one worker" }) { destinationConfig { name } }
}`;

let upstream: ReferenceUpstream;
let gateway: GatewayProcess;
beforeAll(async () => {
  upstream = await startReferenceUpstream({ dialect: 'spec' });
  gateway = await startGatewayProcess(upstream.url, { WORKERS: '2', ACTIVITY_POLL_MS: '3600000' });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await upstream?.close();
});

it('a write through one worker reaches the subscriptions of both', { timeout: 20_000 }, async () => {
  const at = { url: gateway.url, wsUrl: gateway.url.replace('http', 'ws') } as Harness;
  const baselines = () => upstream.requests.filter((r) => r.path.endsWith('/activity_log/')).length;
  const streams: ReturnType<typeof subscribe>[] = [];
  const first: ReturnType<(typeof streams)[number]['next']>[] = [];
  while (baselines() < 2 && streams.length < 4) {
    const stream = subscribe(at, 'sse', 'phx_full', ACTIVITY);
    streams.push(stream);
    first.push(stream.next());
    const polls = baselines();
    // A second stream on a worker that polls already makes no new baseline: then another is opened.
    for (let i = 0; i < 50 && baselines() === polls; i++) await settle(20);
  }
  expect(baselines()).toBe(2);
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
    body: JSON.stringify({ query: RENAME, variables: { id: configId('1', 7) } }),
  });
  expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
  for (const next of first) expect((await next).value.data.activityAdded).toMatchObject({ itemId: '7' });
  for (const s of streams) {
    await s.return();
    s.dispose();
  }
});
