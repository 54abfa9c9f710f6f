// A live stream's client that stops reading, or reads more slowly than it is written to, holds
// at most what one answer weighs, however many answers change meanwhile, and is let go within
// two STALLED_READER_MS, its slot given back: over SSE and WebSocket. A @live subscriber keeps
// only the latest unread answer; a subscription's unread events have a byte bound, past which the
// stream ends with a coded event.
import { connect, type Socket } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../support/harness.ts';
import { until } from '../../support/wait.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const MB = 1024 * 1024;
const CONFIGS = 30;

function retainedMb(): number {
  for (let i = 0; i < 10; i++) gc();
  const { heapUsed, external } = process.memoryUsage();
  return (heapUsed + external) / MB;
}

/** A client on a socket of its own that sends `request` and keeps every byte it hears. */
function rawClient(url: string, request: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect({ host: hostname, port: Number(port) });
  let text = '';
  let closed = false;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('close', () => (closed = true));
  socket.on('error', () => {});
  socket.write(request, 'latin1');
  return { socket, text: () => text, closed: () => closed };
}

function sseRequest(url: string, query: string): string {
  const { hostname } = new URL(url);
  const body = JSON.stringify({ query });
  return (
    `POST /graphql HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\n` +
    `accept: text/event-stream\r\nauthorization: Bearer phx_full\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/** A WebSocket frame from a client, masked with a zero key (so its bytes stand as they are). */
function frame(text: string): string {
  const payload = Buffer.from(text);
  const head =
    payload.length < 126
      ? Buffer.from([0x81, 0x80 | payload.length])
      : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  return Buffer.concat([head, Buffer.alloc(4), payload]).toString('latin1');
}

/** A WebSocket client on a raw socket: the upgrade and connection_init; subscribe once acknowledged. */
async function wsClient(url: string, query: string) {
  const { hostname } = new URL(url);
  const client = rawClient(
    url,
    `GET /graphql HTTP/1.1\r\nhost: ${hostname}\r\nupgrade: websocket\r\nconnection: Upgrade\r\n` +
      'sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n' +
      'sec-websocket-protocol: graphql-transport-ws\r\n\r\n' +
      frame(JSON.stringify({ type: 'connection_init', payload: { Authorization: 'Bearer phx_full' } })),
  );
  await until(() => client.text().includes('connection_ack'), 'the connection acknowledged');
  client.socket.write(frame(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } })), 'latin1');
  return client;
}

const LIST = '/api/projects/1/pipeline_destination_configs/';
const LIVE = `query @live { project(projectId: "1") { destinationConfigs(first: ${CONFIGS}) { edges { node { name config } } } } }`;
const rename = (id: string, n: number) =>
  `mutation { updateDestinationConfig(input: { id: "${id}", name: "Renamed ${n}" }) { destinationConfig { name } } }`;

describe.each(['sse', 'ws'] as const)('a @live client over %s that stops reading', (transport) => {
  let h: Harness;
  let firstId = '';
  beforeAll(async () => {
    h = await startHarness({
      env: { LIVE_QUERY_POLL_MS: '600000', STALLED_READER_MS: '10000', LOG_LEVEL: 'silent' },
    });
    // The project's first configs, each made 90 KB: one answer of them weighs 2.7 MB.
    const configs = [...h.upstream.store.configs.values()].filter((c) => c.projectId === 1 && !c.deleted);
    for (const [i, config] of configs.slice(0, CONFIGS).entries()) {
      config.config = { ...config.config, blob: `${i}`.padEnd(90_000, 'x') };
    }
    const { body } = await h.gql(
      `{ project(projectId: "1") { destinationConfigs(first: 1) { edges { node { id } } } } }`,
    );
    firstId = body.data.project.destinationConfigs.edges[0].node.id;
  });
  afterAll(() => h.close());

  it('holds one answer while 40 answers of 2.7 MB change, and is let go with its slot', {
    timeout: 90_000,
  }, async () => {
    const client =
      transport === 'sse' ? rawClient(h.url, sseRequest(h.url, LIVE)) : await wsClient(h.url, LIVE);
    await until(
      () => h.live.slots.open === 1 && client.text().includes('xxxxxxxx'),
      'the first answer begun',
    );
    client.socket.pause();
    const before = retainedMb();
    for (let n = 0; n < 40; n++) {
      const reads = h.upstreamCalls({ method: 'GET', path: LIST }).length;
      const { body } = await h.gql(rename(firstId, n));
      expect(body.errors).toBeUndefined();
      // The write wakes the live query: a new answer of 2.7 MB, each unlike the last.
      await until(
        () => h.upstreamCalls({ method: 'GET', path: LIST }).length > reads || h.live.slots.open === 0,
        `re-run ${n}`,
      );
      if (h.live.slots.open === 0) break;
    }
    const held = retainedMb() - before;
    // Forty unread answers were 110 MB; one answer and the one being written, about 6.
    expect(held, `held ${held.toFixed(1)} MB`).toBeLessThan(20);
    // Let go: its connection is closed (a paused client hears of it only once it reads), its slot given back.
    await until(() => h.live.slots.open === 0, 'its slot given back', { withinMs: 40_000 });
    expect(h.live.slots.open).toBe(0);
    client.socket.destroy();
  });
});

const FEED = 'subscription { activityAdded(projectId: "1", scope: "Backlog") { id detail } }';
const WAKE =
  'mutation { createDestinationConfig(input: { projectId: "1", plugin: 1, order: 3, name: "Wake" }) { destinationConfig { id } } }';

describe.each(['sse', 'ws'] as const)('a subscription client over %s that falls behind', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { ACTIVITY_POLL_MS: '600000', MAX_SUBSCRIBER_BACKLOG_BYTES: String(MB), LOG_LEVEL: 'silent' },
    });
  });
  afterAll(() => h.close());

  it('ends, past MAX_SUBSCRIBER_BACKLOG_BYTES unread, with a coded event after what it had', {
    timeout: 60_000,
  }, async () => {
    const client =
      transport === 'sse' ? rawClient(h.url, sseRequest(h.url, FEED)) : await wsClient(h.url, FEED);
    await until(() => h.live.slots.open === 1, 'subscribed');
    // The baseline poll, before the entries: the feed hears only what comes after it.
    await until(
      () => h.upstreamCalls({ path: '/api/projects/1/activity_log/' }).length >= 1,
      'the baseline poll',
    );
    client.socket.pause();
    // 40 entries of 512 KB: more than loopback's buffers hold, and than the backlog's bound.
    const store = h.upstream.store;
    for (let n = 0; n < 40; n++) {
      store.pushActivity({
        projectId: 1,
        userId: 1,
        is_system: false,
        activity: 'updated',
        scope: 'Backlog',
        item_id: String(n),
        detail: { blob: `${n}`.padEnd(512 * 1024, 'x') },
        createdAtMicros: store.nowMicros(),
      });
    }
    await h.gql(WAKE);
    await until(() => h.live.slots.open === 0, 'the subscriber ended, its slot given back');
    client.socket.resume();
    await until(() => client.text().includes('subscriberBacklog'), 'the coded event');
    const coded = client.text().slice(client.text().indexOf('QUERY_TOO_COMPLEX') - 400);
    expect(coded).toContain('"measure":"subscriberBacklog"');
    expect(coded).toContain(`"limit":${MB}`);
    client.socket.destroy();
  });
});
