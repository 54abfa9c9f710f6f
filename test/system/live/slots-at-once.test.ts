// The subscription caps hold against joins that arrive at once: six subscribe messages in one
// WebSocket chunk (which the server reads in one go), or six SSE requests in parallel, against a
// cap of three (MAX_SUBSCRIPTIONS_PER_KEY, or MAX_SUBSCRIPTIONS for the process), with the slots
// counted in the process alone and through Redis. Three are refused QUERY_TOO_COMPLEX; three
// stay open and hear the next entry.
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { pushEntry } from '../../support/activity-entries.ts';
import { subscribe } from '../../support/clients.ts';
import type { Harness } from '../../support/harness.ts';
import { type GatewayProcess, RedisServer, startGatewayProcess } from '../../support/redis-server.ts';
import { until } from '../../support/wait.ts';

const JOINS = 6;
const CAP = 3;
// Each test hears its own entry alone: an entry a test before it made within the baseline's second
// would otherwise be news to the next test's first poll.
const activity = (itemId: string) =>
  `subscription { activityAdded(projectId: "1", scope: "FeatureFlag", itemId: "${itemId}") { itemId } }`;
const LOG = '/api/projects/1/activity_log/';

/** What became of one join: refused (its error code), or heard an entry. */
type Outcome = { refused: string } | { heard: string };

/** Six subscribe messages written to the socket as one chunk; each join's outcome as it comes. */
async function joinOverOneWsChunk(
  wsUrl: string,
  key: string,
  query: string,
  outcomes: Outcome[],
): Promise<() => void> {
  const socket = new WebSocket(wsUrl, 'graphql-transport-ws', { perMessageDeflate: false });
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${key}` } }));
  const [ack] = await once(socket, 'message');
  expect(JSON.parse(String(ack)).type).toBe('connection_ack');
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (message.type === 'next' && message.payload.errors)
      outcomes.push({ refused: message.payload.errors[0].extensions.code });
    else if (message.type === 'next') outcomes.push({ heard: message.payload.data.activityAdded.itemId });
    else if (message.type === 'error') outcomes.push({ refused: message.payload[0].extensions.code });
  });
  const tcp = (socket as unknown as { _socket: Socket })._socket;
  tcp.cork();
  for (let id = 1; id <= JOINS; id++)
    socket.send(JSON.stringify({ id: String(id), type: 'subscribe', payload: { query } }));
  tcp.uncork();
  return () => socket.close();
}

/** Six SSE subscriptions started together. */
async function joinOverSse(url: string, key: string, query: string, outcomes: Outcome[]) {
  const streams = Array.from({ length: JOINS }, () =>
    subscribe({ url, wsUrl: url } as Harness, 'sse', key, query),
  );
  for (const stream of streams) {
    void stream.next().then((step) => {
      if (step.done) return;
      if (step.value.errors) outcomes.push({ refused: step.value.errors[0].extensions.code });
      else outcomes.push({ heard: step.value.data.activityAdded.itemId });
    });
  }
  return () => {
    for (const stream of streams) stream.dispose();
  };
}

const JOINERS = { ws: joinOverOneWsChunk, sse: joinOverSse } as const;

const CAPS: { cap: string; env: Record<string, string> }[] = [
  { cap: 'MAX_SUBSCRIPTIONS_PER_KEY', env: { MAX_SUBSCRIPTIONS_PER_KEY: String(CAP) } },
  { cap: 'MAX_SUBSCRIPTIONS', env: { MAX_SUBSCRIPTIONS: String(CAP), MAX_SUBSCRIPTIONS_PER_KEY: '100' } },
];

describe.each([
  { counted: 'in the process', redis: false },
  { counted: 'through Redis', redis: true },
])('slots counted $counted', ({ redis: withRedis }) => {
  let upstream: ReferenceUpstream;
  let redis: RedisServer | null = null;
  let next = 0;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'spec' });
    if (withRedis) redis = await RedisServer.start();
  }, 30_000);
  afterAll(async () => {
    await redis?.stop();
    await upstream.close();
  });

  describe.each(CAPS)('$cap of 3', ({ env }) => {
    // A process a test: the slots of one test's streams are nobody's business in the next.
    let gateway: GatewayProcess;
    beforeEach(async () => {
      gateway = await startGatewayProcess(upstream.url, {
        ...env,
        ACTIVITY_POLL_MS: '200',
        ...(redis ? { REDIS_URL: redis.url, REDIS_KEY_PREFIX: `at-once-${next}:` } : {}),
      });
    }, 30_000);
    afterEach(() => gateway.stop());

    it.each([
      'ws',
      'sse',
    ] as const)('six joins at once over %s: three refused, three hear on', async (transport) => {
      const outcomes: Outcome[] = [];
      const url = transport === 'ws' ? gateway.url.replace('http', 'ws') : gateway.url;
      const name = `at-once-${next++}`;
      const leave = await JOINERS[transport](url, 'phx_full', activity(name), outcomes);
      const refused = () => outcomes.filter((o) => 'refused' in o);
      await until(() => refused().length >= CAP, 'refused().length >= CAP');
      // A poll that has the open streams' baseline, then an entry for them.
      const answered = () => upstream.requests.filter((r) => r.path === LOG && r.status !== null).length;
      const polls = answered();
      await until(() => answered() > polls, 'answered() > polls');
      const itemId = pushEntry(upstream.store, 'FeatureFlag', name).item_id!;
      await until(() => outcomes.length >= JOINS, 'outcomes.length >= JOINS');
      leave();
      expect(refused()).toEqual(Array.from({ length: CAP }, () => ({ refused: 'QUERY_TOO_COMPLEX' })));
      expect(outcomes.filter((o) => 'heard' in o)).toEqual(
        Array.from({ length: JOINS - CAP }, () => ({ heard: itemId })),
      );
    }, 30_000);
  });
});
