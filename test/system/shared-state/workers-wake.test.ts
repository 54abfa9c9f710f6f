// WORKERS=2 without Redis: a write through one worker wakes the subscriptions held by the other
// (through the primary, over IPC). The poll interval is an hour, so only the relayed wake-up can
// bring the entry. Four streams are opened, which the primary hands to both workers in turn, so
// the write lands on the other worker than some of them; one poller serves both workers (its
// lease held through the primary), so the log is read once for its baseline and once a write,
// not once a worker.

import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawSse } from '../../support/clients.ts';
import { configId, type Harness } from '../../support/harness.ts';
import { type GatewayProcess, startGatewayProcess } from '../../support/redis-server.ts';
import { settle, until } from '../../support/wait.ts';

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
  const reads = () => upstream.requests.filter((r) => r.path.endsWith('/activity_log/')).length;
  const streams = Array.from({ length: 4 }, () => rawSse(at, 'phx_full', ACTIVITY, {}));
  await Promise.all(streams.map((s) => s.ready));
  await until(() => reads() >= 1, 'the poller’s baseline');
  expect(reads()).toBe(1);
  const rename = async () => {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
      body: JSON.stringify({ query: RENAME, variables: { id: configId('1', 7) } }),
    });
    expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
  };
  // A stream's headers may come before it has joined the poller: written again until all heard.
  let writes = 0;
  while (!streams.every((s) => s.events.length >= 1)) {
    await rename();
    writes++;
    await until(() => streams.every((s) => s.events.length >= 1) || reads() > writes, 'the wake-up’s read');
    await settle(200);
  }
  for (const s of streams) {
    expect(s.events.map((e) => JSON.parse(e).data.activityAdded.itemId)).toEqual(
      Array(s.events.length).fill('7'),
    );
    s.close();
  }
  // Each wake-up read the log once, for both workers (not once a worker).
  expect(reads()).toBe(writes + 1);
});
