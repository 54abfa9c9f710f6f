// Slots and sockets for keys PostHog has accepted: live work of a key not accepted lately starts
// only after one cheap call says PostHog knows it, so invented keys hold no subscription slot (over
// SSE and WebSocket); a WebSocket must bring a Bearer key in connection_init, is closed once idle,
// and sockets per key and per peer are capped.
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { subscribe, type Transport } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { until } from '../support/wait.ts';

const CHECK = '/api/projects/@current/';
const NOTHING_UPSTREAM = 'query @live { __typename }';

describe.each([
  'sse',
  'ws',
] as Transport[])('invented keys trying to fill MAX_SUBSCRIPTIONS over %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { MAX_SUBSCRIPTIONS: '20', MAX_SUBSCRIPTIONS_PER_KEY: '5', LOG_LEVEL: 'silent' },
    });
  });
  afterAll(() => h.close());

  it('hold no slot, cost one call a key, and a real key subscribes', async () => {
    const invented = Array.from({ length: 4 }, (_, k) =>
      Array.from({ length: 5 }, () =>
        subscribe(h, transport, `phx_invented_${transport}_${k}`, NOTHING_UPSTREAM),
      ),
    ).flat();
    const answers = await Promise.all(invented.map((s) => s.next()));
    for (const answer of answers) expect(answer.value.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(h.live.slots.open).toBe(0);
    // One check a key (five subscriptions of one key share it, or find it refused).
    expect(h.upstreamCalls({ path: CHECK }).length).toBeLessThanOrEqual(4);
    expect(h.upstreamCalls().every((call) => call.path === CHECK)).toBe(true);
    for (const s of invented) s.dispose();

    const real = subscribe(h, transport, 'phx_full', 'query @live { project(projectId: "1") { name } }');
    expect((await real.next()).value.data.project.name).toBe('Hedgebox (production)');
    expect(h.live.slots.open).toBe(1);
    await real.return();
    real.dispose();
    await until(() => h.live.slots.open === 0, 'the slot given back');
  });
});

describe('a WebSocket', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: {
        WS_IDLE_TIMEOUT_MS: '1000',
        MAX_SOCKETS_PER_KEY: '2',
        MAX_SOCKETS_PER_PEER: '4',
        LOG_LEVEL: 'silent',
      },
    });
  });
  afterAll(() => h.close());

  /** A raw socket's connection_init with `payload`; its close code and reason. */
  async function initWith(payload: unknown, headers: Record<string, string> = {}) {
    const socket = new WebSocket(h.wsUrl, 'graphql-transport-ws', { headers });
    socket.on('error', () => {});
    const closed = new Promise<[number, string]>((resolve) =>
      socket.once('close', (code, reason) => resolve([code, String(reason)])),
    );
    const acknowledged = new Promise<boolean>((resolve) => {
      socket.once('message', () => resolve(true));
      socket.once('close', () => resolve(false));
    });
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', ...(payload === undefined ? {} : { payload }) }));
    return { socket, closed, acknowledged };
  }

  it('without a Bearer key in connection_init is closed 4401 with the message HTTP gives', async () => {
    for (const payload of [
      undefined,
      {},
      { Authorization: 'phx_full' },
      { Authorization: 'Token phx_full' },
    ]) {
      const { closed } = await initWith(payload);
      const [code, reason] = await closed;
      expect(code).toBe(4401);
      expect(reason).toBe('Send your PostHog personal API key as "Authorization: Bearer <key>".');
    }
    const { body } = await h.gql('{ project(projectId: "1") { name } }', {}, null);
    expect(body.errors[0].message).toBe(
      'Send your PostHog personal API key as "Authorization: Bearer <key>".',
    );
    // The upgrade's own header still brings a key.
    const { socket, acknowledged } = await initWith(undefined, { authorization: 'Bearer phx_full' });
    expect(await acknowledged).toBe(true);
    socket.close();
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('with no operation for WS_IDLE_TIMEOUT_MS is closed; one running an operation stays', async () => {
    const idle = await initWith({ Authorization: 'Bearer phx_full' });
    const client = createWsClient({
      url: h.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: 'Bearer phx_full' },
      retryAttempts: 0,
      lazy: true,
    });
    const live = client.iterate({ query: 'subscription { activityAdded(projectId: "1") { id } }' });
    const first = live.next();
    const [code] = await idle.closed;
    expect(code).toBe(1000);
    // The subscription's socket outlived the idle one, and still runs its operation.
    expect(h.live.slots.open).toBe(1);
    await live.return?.();
    void first;
    await client.dispose();
  });

  it('of a key past MAX_SOCKETS_PER_KEY is closed 1008; a peer past MAX_SOCKETS_PER_PEER is refused 429', async () => {
    const held = [
      await initWith({ Authorization: 'Bearer phx_caps' }),
      await initWith({ Authorization: 'Bearer phx_caps' }),
    ];
    for (const { acknowledged } of held) expect(await acknowledged).toBe(true);
    // However the key is spelt, it is one key.
    const third = await initWith({ Authorization: 'bearer   phx_caps' });
    expect((await third.closed)[0]).toBe(1008);
    const other = [
      await initWith({ Authorization: 'Bearer phx_other' }),
      await initWith({ Authorization: 'Bearer phx_other' }),
    ];
    for (const { acknowledged } of other) expect(await acknowledged).toBe(true);
    const refused = new WebSocket(h.wsUrl, 'graphql-transport-ws');
    const status = await new Promise<number>((resolve) => {
      refused.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      refused.once('open', () => resolve(101));
      refused.on('error', () => {});
    });
    expect(status).toBe(429);
    for (const { socket } of [...held, ...other]) socket.close();
  });
});
