// What a caller may hold of the HTTP server: a request trickled a byte at a time is cut at
// REQUEST_TIMEOUT_MS (it held a connection for 326 s), headers at HEADERS_TIMEOUT_MS, and no more
// than MAX_CONNECTIONS sockets are open at once.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';
import { settle, until } from '../support/wait.ts';

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Trickles `text` a byte every 100 ms; what the server answered, and how much was sent, once it closed. */
async function trickle(socket: Socket, text: string): Promise<{ answer: string; sent: number }> {
  let answer = '';
  let closed = false;
  socket.on('data', (chunk) => {
    answer += chunk;
  });
  socket.on('close', () => {
    closed = true;
  });
  socket.on('error', () => {});
  let sent = 0;
  for (; sent < text.length && !closed; sent++) {
    socket.write(text[sent]!);
    await settle(100);
  }
  await until(() => closed, 'closed');
  return { answer, sent };
}

describe('connections a caller may hold', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '1000', MAX_CONNECTIONS: '5' },
    });
  });
  afterAll(() => h.close());

  it('cuts a body trickled a byte at a time with 408', { timeout: 30_000 }, async () => {
    const socket = await open(h.url);
    const body = JSON.stringify({ query: `{ __typename ${' '.repeat(200)}}` });
    const head = `POST /graphql HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    socket.write(head);
    const { answer, sent } = await trickle(socket, body);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(sent).toBeLessThan(body.length);
  });

  it('cuts headers trickled a byte at a time with 408', { timeout: 30_000 }, async () => {
    const socket = await open(h.url);
    const head = `GET /graphql?query=%7B__typename%7D HTTP/1.1\r\nHost: gateway\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`;
    const { answer, sent } = await trickle(socket, head);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(sent).toBeLessThan(head.length);
  });

  it('holds no more than MAX_CONNECTIONS sockets, and serves again once they close', async () => {
    const held = await Promise.all(Array.from({ length: 5 }, () => open(h.url)));
    const extra = await open(h.url);
    const closed = await Promise.race([
      new Promise((resolve) => extra.once('close', () => resolve(true))),
      settle(5_000).then(() => false),
    ]);
    expect(closed).toBe(true);
    for (const socket of held) socket.destroy();
    for (let i = 0; i < 50; i++) {
      const answer = await h.gql('{ __typename }').catch(() => null);
      if (answer?.body?.data) break;
      await settle(20);
    }
    expect((await h.gql('{ __typename }')).body.data).toEqual({ __typename: 'Query' });
  });
});
