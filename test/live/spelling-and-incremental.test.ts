// Two ways a live operation used to depend on its path: a key spelt `bearer <key>` (which PostHog
// refuses) is forwarded as `Bearer <key>` on every path, so it gets the same answer over HTTP,
// SSE and WebSocket whether it joins a shared stream or starts one; and `@live` with `@defer` or
// `@stream` is refused before anything runs, over each transport.
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Harness, startHarness } from '../support/harness.ts';
import { until } from '../support/wait.ts';

const LIVE = 'query @live { project(projectId: "1") { name } }';

async function firstOverWs(h: Harness, authorization: string, query: string) {
  const client = createWsClient({
    url: h.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: authorization },
    retryAttempts: 0,
    lazy: true,
  });
  const iterator = client.iterate({ query });
  try {
    return (await iterator.next()).value;
  } finally {
    await iterator.return?.();
    await client.dispose();
  }
}

async function firstOverSse(h: Harness, authorization: string, query: string) {
  const response = await fetch(h.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization },
    body: JSON.stringify({ query }),
  });
  const reader = response.body!.getReader();
  let text = '';
  while (!/event: next\ndata: .*\n\n/.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += Buffer.from(value).toString();
  }
  await reader.cancel();
  return JSON.parse(/event: next\ndata: (.*)\n\n/.exec(text)![1]!);
}

describe('however the key is spelt', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { LOG_LEVEL: 'silent' } });
  });
  afterAll(() => h.close());

  it('is forwarded as `Bearer <key>` over HTTP, SSE and WebSocket, and answered alike', async () => {
    for (const spelling of ['bearer phx_full', 'BEARER   phx_full', '  Bearer\tphx_full ']) {
      const http = await h.post(JSON.stringify({ query: '{ project(projectId: "1") { name } }' }), {
        'content-type': 'application/json',
        authorization: spelling,
      });
      expect(http.body.data.project.name).toBe('Hedgebox (production)');
      expect((await firstOverSse(h, spelling, LIVE)).data.project.name).toBe('Hedgebox (production)');
      expect((await firstOverWs(h, spelling, LIVE)).data.project.name).toBe('Hedgebox (production)');
    }
    await until(() => h.live.slots.open === 0, 'the slots given back');
    const sent = new Set(h.upstreamCalls().map((call) => call.authorization));
    expect([...sent]).toEqual(['Bearer phx_full']);
  });
});

describe('@live with @defer or @stream', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { LOG_LEVEL: 'silent' } });
  });
  afterAll(() => h.close());

  const INCREMENTAL = [
    'query @live { project(projectId: "1") { name ... @defer { destinationConfigs(first: 1) { totalCount } } } }',
    'query @live { project(projectId: "1") { destinationConfigs(first: 2) { edges @stream(initialCount: 1) { node { name } } } } }',
  ];

  it('is refused with BAD_USER_INPUT over HTTP, SSE and WebSocket, and nothing is asked upstream', async () => {
    for (const query of INCREMENTAL) {
      const answers = [
        (await h.gql(query, {}, 'phx_full')).body,
        await firstOverSse(h, 'Bearer phx_full', query),
        await firstOverWs(h, 'Bearer phx_full', query),
      ];
      for (const answer of answers) {
        expect(answer.data ?? null).toBeNull();
        expect(answer.errors[0].extensions.code).toBe('BAD_USER_INPUT');
        expect(answer.errors[0].message).toMatch(/^@live cannot be combined with @(defer|stream)/);
      }
    }
    expect(h.upstreamCalls()).toHaveLength(0);
    expect(h.live.slots.open).toBe(0);
  });
});
