// A subscriber's SSE stream (a subscription's, a live query's) is written to its connection, taken from node's HTTP server
// once the head is out (src/server/taken-connection.ts): what an open subscriber holds is its socket
// and its place in the stream, not node's request, response and HTTP parser. What node's server
// did for the connection is done after it is taken: chunked framing, the end of the stream, the
// client's half-close, bytes the client sends after its request, the shutdown's cut.

import { createServer, IncomingMessage, type Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { connect, type Socket } from 'node:net';
import v8 from 'node:v8';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeTakenConnections, TakenConnection } from '../../../src/server/taken-connection.ts';
import { rawSse } from '../../support/clients.ts';
import { type Harness, startHarness } from '../../support/harness.ts';
import { settle, until } from '../../support/wait.ts';

const FEED = 'subscription { activityAdded(projectId: "1") { id activity } }';
const WRITE =
  'mutation { createDestinationConfig(input: { projectId: "1", plugin: 1, order: 3, name: "Heard" }) { destinationConfig { id } } }';
const SUBSCRIBERS = 200;

const { HTTPParser } = createRequire(import.meta.url)('_http_common') as { HTTPParser: new () => unknown };

/** Live objects of the class (after a full garbage collection). */
const live = (kind: abstract new (...args: never[]) => unknown) =>
  v8.queryObjects(kind as never, { format: 'count' }) as number;

/** A subscriber on a socket of its own: the request as written, and every byte it hears. */
function rawSubscriber(url: string, version = '1.1', query = FEED) {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ query });
  const socket: Socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
  let text = '';
  let closed = false;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (text += chunk));
  // The server's end of the connection (this client half-closes only when a test says so).
  socket.on('end', () => (closed = true));
  socket.on('error', () => {});
  socket.write(
    `POST /graphql HTTP/${version}\r\nhost: ${hostname}\r\ncontent-type: application/json\r\n` +
      `accept: text/event-stream\r\nauthorization: Bearer phx_full\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return {
    socket,
    text: () => text,
    head: () => text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase(),
    body: () => text.slice(text.indexOf('\r\n\r\n') + 4),
    closed: () => closed,
  };
}

describe('an SSE subscriber’s connection, taken from node', { timeout: 60_000 }, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { ACTIVITY_POLL_MS: '60000', MAX_SUBSCRIPTIONS_PER_KEY: String(SUBSCRIBERS), LOG_LEVEL: 'silent' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it(`holds no request, response or HTTP parser of node's: ${SUBSCRIBERS} subscribers, each still hears the event`, async () => {
    const before = {
      requests: live(IncomingMessage),
      responses: live(ServerResponse),
      parsers: live(HTTPParser),
    };
    const streams = Array.from({ length: SUBSCRIBERS }, () => rawSse(h, 'phx_full', FEED, {}));
    await Promise.all(streams.map((s) => s.ready));
    await until(() => h.live.slots.open === SUBSCRIBERS, 'every slot');

    // This process's clients (rawSse, node's http client) hold an IncomingMessage and a parser
    // each, reading their streams; a server that kept its own would hold twice as many.
    expect(live(ServerResponse) - before.responses).toBeLessThan(10);
    expect(live(IncomingMessage) - before.requests).toBeLessThan(SUBSCRIBERS + 10);
    expect(live(HTTPParser) - before.parsers).toBeLessThan(SUBSCRIBERS + 10);

    await h.gql(WRITE, {}, 'phx_full');
    await until(() => streams.every((s) => s.events.length === 1), 'the event on every stream');
    expect(new Set(streams.map((s) => s.events[0])).size).toBe(1);
    for (const s of streams) s.close();
    await until(() => h.live.slots.open === 0, 'every slot given back');
  });

  it('says the connection closes after the stream, frames it in chunks, and drops what the client sends after its request', async () => {
    const subscriber = rawSubscriber(h.url);
    await until(() => subscriber.body().startsWith('3\r\n:\n\n\r\n'), 'the first ping, as a chunk');
    expect(subscriber.head()).toMatch(/^http\/1\.1 200/);
    expect(subscriber.head()).toContain('\r\nconnection: close');
    expect(subscriber.head()).toContain('\r\ntransfer-encoding: chunked');
    // Not a request node would answer (or refuse, closing the stream): read and dropped.
    subscriber.socket.write('not http at all\r\n\r\nGET /graphql HTTP/1.1\r\nhost: x\r\n\r\n');

    await h.gql(WRITE, {}, 'phx_full');
    await until(() => subscriber.body().includes('event: next'), 'the event');
    expect(subscriber.closed()).toBe(false);
    expect(subscriber.text().match(/HTTP\/1\.1/g)).toHaveLength(1);
    subscriber.socket.destroy();
    await until(() => h.live.slots.open === 0, 'the slot given back');
  });

  it('ends the stream when the client half-closes, as node ends a response then', async () => {
    const subscriber = rawSubscriber(h.url);
    await until(() => h.live.slots.open === 1, 'the slot');
    subscriber.socket.end();
    await until(() => subscriber.closed(), 'the connection closed');
    await until(() => h.live.slots.open === 0, 'the slot given back');
  });

  it('gives back the slot of a client that resets its connection with events unread, once, and the others hear on', async () => {
    const gone = rawSubscriber(h.url);
    const stays = rawSubscriber(h.url);
    await until(() => h.live.slots.open === 2, 'both slots');
    gone.socket.pause();
    for (let i = 0; i < 5; i += 1) await h.gql(WRITE, {}, 'phx_full');
    gone.socket.resetAndDestroy();
    await h.gql(WRITE, {}, 'phx_full');
    await until(() => stays.body().split('event: next').length === 7, 'six events on the other stream');
    await until(() => h.live.slots.open === 1, 'the reset one’s slot given back');
    stays.socket.destroy();
    await until(() => h.live.slots.open === 0, 'the slot given back');
  });

  it('serves on when a subscriber pipelines a request of many headers behind its subscription', async () => {
    const body = JSON.stringify({ query: FEED });
    const headers = Array.from({ length: 40 }, (_, i) => `x-h${i}: ${i}\r\n`).join('');
    const { hostname, port } = new URL(h.url);
    const socket = connect({ host: hostname, port: Number(port) });
    socket.on('error', () => {});
    let heard = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (heard += chunk));
    socket.write(
      `POST /graphql HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\naccept: text/event-stream\r\n` +
        `authorization: Bearer phx_full\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}` +
        `GET /graphql?query=%7B__typename%7D HTTP/1.1\r\nhost: x\r\n${headers}\r\n`,
    );
    await until(() => heard.includes('text/event-stream'), 'the stream’s head');
    await h.gql(WRITE, {}, 'phx_full');
    await until(() => heard.includes('event: next'), 'the event');
    socket.destroy();
    await until(() => h.live.slots.open === 0, 'the slot given back');
  });

  it('writes an HTTP/1.0 client’s stream unframed, and closes it after', async () => {
    const subscriber = rawSubscriber(h.url, '1.0');
    await until(() => subscriber.body().startsWith(':\n\n'), 'the first ping');
    expect(subscriber.head()).not.toContain('transfer-encoding');
    await h.gql(WRITE, {}, 'phx_full');
    await until(() => subscriber.body().includes('event: next'), 'the event');
    expect(subscriber.body()).toMatch(/^:\n\nevent: next\ndata: \{/);
    subscriber.socket.destroy();
    await until(() => h.live.slots.open === 0, 'the slot given back');
  });

  it('takes a live query’s connection too, and leaves @defer’s to node (its request’s work still watches it)', async () => {
    const liveQuery = rawSubscriber(h.url, '1.1', 'query @live { project(projectId: "1") { name } }');
    const deferred = rawSubscriber(
      h.url,
      '1.1',
      'query { project(projectId: "1") { name ... @defer { destinationConfigs(first: 1) { totalCount } } } }',
    );
    await until(() => liveQuery.body().includes('event: next'), 'the live answer');
    await until(() => deferred.body().includes('0\r\n\r\n'), 'the deferred answer, whole');
    expect(liveQuery.head()).toContain('\r\nconnection: close');
    expect(deferred.head()).toContain('\r\nconnection: keep-alive');
    liveQuery.socket.destroy();
    deferred.socket.destroy();
    await until(() => h.live.slots.open === 0, 'the slot given back');
  });

  it('completes at shutdown: the complete event, the last chunk, and the connection closed', async () => {
    const chunked = rawSubscriber(h.url);
    const unframed = rawSubscriber(h.url, '1.0');
    await until(() => h.live.slots.open === 2, 'both slots');
    h.live.closeAll();
    await until(() => chunked.closed() && unframed.closed(), 'both connections closed');
    expect(chunked.body().endsWith('17\r\nevent: complete\ndata:\n\n\r\n0\r\n\r\n')).toBe(true);
    expect(unframed.body().endsWith(':\n\nevent: complete\ndata:\n\n')).toBe(true);
  });
});

describe('an SSE subscriber whose client stops reading', { timeout: 60_000 }, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      // A backlog bound past the burst: what lets these clients go is their pace alone.
      env: {
        ACTIVITY_POLL_MS: '60000',
        STALLED_READER_MS: '3000',
        MAX_SUBSCRIBER_BACKLOG_BYTES: String(64 * 1024 * 1024),
        LOG_LEVEL: 'silent',
      },
    });
  });
  afterAll(() => h.close());

  /** `batches` polls' worth of events of 512 KiB, 2 MiB a poll, each poll woken once `heard` says so. */
  async function burst(batches: number, heard: (bytes: number) => boolean) {
    const detail = { blob: 'x'.repeat(512 * 1024) };
    const store = h.upstream.store;
    for (let batch = 1; batch <= batches; batch++) {
      for (let n = 0; n < 4; n++) {
        store.pushActivity({
          projectId: 1,
          userId: 1,
          is_system: false,
          activity: 'updated',
          scope: 'Stall',
          item_id: String(n),
          detail,
          createdAtMicros: store.nowMicros(),
        });
      }
      await h.gql(WRITE, {}, 'phx_full');
      await until(() => heard(batch * 4 * 512 * 1024), `batch ${batch} heard`);
    }
  }

  it('is let go once it has taken no byte for STALLED_READER_MS, and so is one slower than its stream; a fast one stays', async () => {
    const feed = 'subscription { activityAdded(projectId: "1") { id detail } }';
    const stopped = rawSubscriber(h.url, '1.1', feed);
    const slow = rawSubscriber(h.url, '1.1', feed);
    const fast = rawSubscriber(h.url, '1.1', feed);
    await until(() => h.live.slots.open === 3, 'three slots');
    stopped.socket.pause();
    // The slow one takes 64 KiB at a time, 5 times a second: within STALLED_READER_MS it takes
    // less than was waiting for it, so it is let go too (server/slow-readers.ts).
    let taken = 0;
    slow.socket.on('data', (chunk: string) => {
      taken += chunk.length;
      if (taken < 64 * 1024) return;
      taken = 0;
      slow.socket.pause();
      setTimeout(() => slow.socket.resume(), 200);
    });
    // 12 MiB: more than loopback's buffers hold for a client that reads nothing (a send buffer of
    // up to 4 MiB; a receive buffer grows only as it is read).
    await burst(6, (bytes) => fast.text().length > bytes);
    await until(() => h.live.slots.open <= 1, 'the slow reader’s slot given back', { withinMs: 30_000 });
    expect(h.live.slots.open).toBe(1);
    const heard = fast.text().length;
    await h.gql(WRITE, {}, 'phx_full');
    await until(() => fast.text().length > heard, 'the fast one hears on');
    for (const client of [stopped, slow, fast]) client.socket.destroy();
    await until(() => h.live.slots.open === 0, 'the slots given back');
  });
});

describe('closeTakenConnections', () => {
  let server: Server;
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("closes the connections a server's responses gave up, which node's closeAllConnections no longer reaches", async () => {
    server = createServer((req, res) => {
      // Once the request is read to its end, as the gateway's door takes a connection.
      req.resume().on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream', connection: 'close' });
        TakenConnection.take(res)?.write(Buffer.from(':\n\n'));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const subscriber = rawSubscriber(`http://127.0.0.1:${port}/graphql`);
    await until(() => subscriber.body().startsWith('3\r\n:\n\n\r\n'), 'the ping');
    server.closeAllConnections();
    await settle(50);
    expect(subscriber.closed()).toBe(false);
    closeTakenConnections(server);
    await until(() => subscriber.closed(), 'the connection closed');
  });

  /**
   * Sends `GET /stream` and `pipelined` behind it in one write, to a server that tries to take the
   * stream's connection from a promise reaction, as the door does; whether it was taken.
   */
  async function takeWithPipelined(pipelined: string): Promise<TakenConnection | null> {
    const taken: (TakenConnection | null)[] = [];
    const server = createServer((req, res) => {
      req.resume();
      if (req.url !== '/stream') return void res.end('b');
      queueMicrotask(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream', connection: 'close' });
        taken.push(TakenConnection.take(res));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('error', () => {});
    socket.write(`GET /stream HTTP/1.1\r\nhost: x\r\n\r\n${pipelined}`);
    await until(() => taken.length === 1, 'the stream answered');
    // Node's list of connections holds no parser without its socket.
    expect(() => server.closeIdleConnections()).not.toThrow();
    socket.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    return taken[0];
  }

  it('leaves a connection to node while the body of a request pipelined behind the stream is being read', async () => {
    // Node runs queued promise reactions from within its parse of a body: the take runs in /b's.
    expect(
      await takeWithPipelined('POST /b HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\n\r\nhello'),
    ).toBeNull();
  });

  it('leaves a connection to node while the headers of a request pipelined behind the stream are being read', async () => {
    // Node hands a request's headers to JS 32 at a time, and runs queued promise reactions when it
    // does: the take runs with /b's headers half read. Taken then, node's parser would go on
    // with /b without its server's callbacks, and throw out of the process.
    const headers = Array.from({ length: 40 }, (_, i) => `x-h${i}: ${i}\r\n`).join('');
    expect(await takeWithPipelined(`GET /b HTTP/1.1\r\nhost: x\r\n${headers}\r\n`)).toBeNull();
  });
});
