// A WebSocket subscriber whose client stops reading is let go, as an SSE one is
// (taken-connection.test.ts): graphql-ws pings every socket every 12 s and terminates one whose
// pong has not come by the next (node_modules/graphql-ws/dist/use/ws.js, useServer's keepAlive),
// and a client that reads nothing reads no ping. Its slot and socket are given back.
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Harness, startHarness } from '../../support/harness.ts';
import { until } from '../../support/wait.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { ACTIVITY_POLL_MS: '60000' } });
});
afterAll(() => h.close());

it('terminates the socket of a client that stopped reading, and gives back its slot', {
  timeout: 60_000,
}, async () => {
  const socket = new WebSocket(h.wsUrl, 'graphql-transport-ws');
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: 'Bearer phx_full' } }));
  await new Promise((resolve) => socket.once('message', resolve));
  socket.send(
    JSON.stringify({
      id: '1',
      type: 'subscribe',
      payload: { query: 'subscription { activityAdded(projectId: "1") { id } }' },
    }),
  );
  await until(() => h.live.slots.open > 0, 'h.live.slots.open > 0');
  expect(h.live.slots.open).toBe(1);
  // It stops reading: the server's pings go unanswered, and the slot is held until its socket goes.
  (socket as unknown as { _socket: { pause(): void } })._socket.pause();
  await until(() => h.live.slots.open === 0, 'h.live.slots.open === 0', { withinMs: 40_000 });
  expect(h.live.slots.open).toBe(0);
  socket.terminate();
});
