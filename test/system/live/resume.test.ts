// A feed a client can resume, over SSE and graphql-ws: activityAdded(after:) first delivers every
// entry after the one the client has (an id, or a cursor of activityLog), oldest first, then goes
// live, none twice and none missed across the seam; past the catch-up bound the QUERY_TOO_COMPLEX
// event comes first; an `after` the log does not hold is BAD_USER_INPUT before any polling. The
// documented clients (examples/activity-feed-*.ts) reconnect during a burst of writes and lose
// nothing, double nothing.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Socket, connect as tcpConnect } from 'node:net';
import type { ActivityEntry, Dialect } from 'posthog-emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as sseFeed from '../../../examples/activity-feed-sse.ts';
import * as wsFeed from '../../../examples/activity-feed-ws.ts';
import { codeBlocks, ROOT } from '../../docs/markdown-blocks.ts';
import { pushEntry as pushStoreEntry } from '../../support/activity-entries.ts';
import { subscribe, type Transport } from '../../support/clients.ts';
import { configId, type Harness, startHarness } from '../../support/harness.ts';
import { settle, until } from '../../support/wait.ts';

const FEED = `subscription($projectId: String!, $scope: String, $after: String) {
  activityAdded(projectId: $projectId, scope: $scope, after: $after) { id activity itemId }
}`;
const LOG = `query($scope: String) { project(projectId: "1") {
  activityLog(first: 5, scope: $scope) { edges { cursor node { id } } } } }`;
const UPDATE =
  'mutation($id: ID!, $name: String!) { updateDestinationConfig(input: {id: $id, name: $name}) { destinationConfig { name } } }';

/** Writes an entry straight into the upstream's log (no write through the gateway wakes a poller). */
const pushEntry = (h: Harness, scope: string, itemId: string, projectId = 1): ActivityEntry =>
  pushStoreEntry(h.upstream.store, scope, itemId, projectId);

/** Project 1's entries from `from` on (store order: the upstream's, oldest first). */
const projectEntries = (h: Harness, from: ActivityEntry) => {
  const all = h.upstream.store.activity.filter((e) => e.projectId === 1);
  return all.slice(all.indexOf(from) + 1).map((e) => e.id);
};

// biome-ignore lint/suspicious/noExplicitAny: events are inspected field by field.
async function take(s: ReturnType<typeof subscribe>, count: number): Promise<any[]> {
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  const events: any[] = [];
  while (events.length < count) {
    const step = await Promise.race([s.next(), settle(10_000).then(() => null)]);
    if (step === null || step.done) break;
    events.push(step.value);
  }
  return events;
}

/** The poller's own polls ask to follow the log; a catch-up reads it newest first. */
const pollerPolls = (h: Harness) =>
  h.upstreamCalls({ path: '/api/projects/1/activity_log/' }).filter((c) => c.query.includes('follow=true'));

describe.each<Transport>(['sse', 'ws'])('activityAdded(after:) over %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { ACTIVITY_POLL_MS: '60000' } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  async function closed(s: ReturnType<typeof subscribe>) {
    await s.return();
    s.dispose();
    await until(
      () => h.live.activity.pollerCount === 0 && h.live.slots.open === 0,
      'no poller and no slot left',
    );
    expect(h.live.slots.open).toBe(0);
  }

  for (const form of ['id', 'cursor'] as const) {
    it(`delivers what came after an entry (by ${form}), oldest first, then goes live`, async () => {
      const log = await h.gql(LOG, { scope: 'PluginConfig' });
      const edges = log.body.data.project.activityLog.edges;
      // The client has the third newest: the two newer come first.
      const after = form === 'id' ? edges[2].node.id : edges[2].cursor;
      const s = subscribe(h, transport, 'phx_full', FEED, { projectId: '1', scope: 'PluginConfig', after });
      const caughtUp = await take(s, 2);
      expect(caughtUp.map((e) => e.data.activityAdded.id)).toEqual([edges[1].node.id, edges[0].node.id]);
      await until(() => pollerPolls(h).length > 0, 'pollerPolls(h).length > 0');
      await h.gql(UPDATE, { id: configId('1', 1), name: `Live ${form}` });
      const [live] = await take(s, 1);
      expect(live.data.activityAdded).toMatchObject({ activity: 'updated', itemId: '1' });
      await closed(s);
    });
  }

  it('an entry of another project, one the upstream no longer keeps, or a cursor of other filters is BAD_USER_INPUT, before any polling', async () => {
    const otherProject = h.upstream.store.activity.find((e) => e.projectId === 2)!.id;
    const gone = pushEntry(h, 'PluginConfig', '1');
    pushEntry(h, 'PluginConfig', '2');
    // Past what the upstream keeps.
    h.upstream.store.activity.splice(h.upstream.store.activity.indexOf(gone), 1);
    const log = await h.gql(LOG, { scope: 'FeatureFlag' });
    const otherFilters = log.body.data.project.activityLog.edges[0].cursor;
    for (const after of [otherProject, gone.id, otherFilters, 'not an id!']) {
      const s = subscribe(h, transport, 'phx_full', FEED, { projectId: '1', scope: 'PluginConfig', after });
      const [refused] = await take(s, 1);
      expect(refused.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
      expect((await s.next()).done).toBe(true);
      s.dispose();
    }
    await until(() => h.live.slots.open === 0, 'h.live.slots.open === 0');
    expect(h.live.slots.open).toBe(0);
    expect(h.live.activity.pollerCount).toBe(0);
    expect(pollerPolls(h)).toHaveLength(0);
  });

  it('past the bound, a later page’s cursor is looked for on its page: held, the newest 1,000; gone, BAD_USER_INPUT', {
    timeout: 60_000,
  }, async () => {
    for (let n = 0; n < 105; n++) pushEntry(h, 'Paged', String(n));
    const top = await h.gql(LOG.replace('first: 5', 'first: 100'), { scope: 'Paged' });
    const next = await h.gql(
      `query($after: String) { project(projectId: "1") {
        activityLog(first: 1, scope: "Paged", after: $after) { edges { cursor node { id } } } } }`,
      { after: top.body.data.project.activityLog.edges[99].cursor },
    );
    const [edge] = next.body.data.project.activityLog.edges;
    const anchor = h.upstream.store.activity.find((e) => e.id === edge.node.id)!;
    for (let n = 0; n < 1_050; n++) pushEntry(h, 'Paged', `burst ${n}`);
    const held = subscribe(h, transport, 'phx_full', FEED, {
      projectId: '1',
      scope: 'Paged',
      after: edge.cursor,
    });
    const events = await take(held, 1_001);
    expect(events[0].errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX' });
    expect(events.slice(1).map((e) => e.data.activityAdded.id)).toEqual(
      projectEntries(h, anchor).slice(-1_000),
    );
    await closed(held);

    h.upstream.store.activity.splice(h.upstream.store.activity.indexOf(anchor), 1);
    const gone = subscribe(h, transport, 'phx_full', FEED, {
      projectId: '1',
      scope: 'Paged',
      after: edge.cursor,
    });
    const [refused] = await take(gone, 1);
    expect(refused.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
    expect((await gone.next()).done).toBe(true);
    gone.dispose();
  });

  it('past the bound, a first page’s cursor counts as a bare id (the top of the log has moved on)', {
    timeout: 60_000,
  }, async () => {
    pushEntry(h, 'Top', 'anchor');
    const top = await h.gql(LOG, { scope: 'Top' });
    const [edge] = top.body.data.project.activityLog.edges;
    for (let n = 0; n < 1_050; n++) pushEntry(h, 'Top', String(n));
    const s = subscribe(h, transport, 'phx_full', FEED, { projectId: '1', scope: 'Top', after: edge.cursor });
    const events = await take(s, 1_001);
    expect(events[0].errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX' });
    expect(events).toHaveLength(1_001);
    await closed(s);
  });

  it('past the catch-up bound, says so first, then delivers the newest 1,000 in order, then goes live', {
    timeout: 60_000,
  }, async () => {
    const anchor = pushEntry(h, 'Bound', 'anchor');
    for (let n = 0; n < 1_050; n++) pushEntry(h, 'Bound', String(n));
    const s = subscribe(h, transport, 'phx_full', FEED, { projectId: '1', scope: 'Bound', after: anchor.id });
    const events = await take(s, 1_001);
    expect(events[0].errors[0].extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      measure: 'activityCatchUpPages',
    });
    const ids = events.slice(1).map((e) => e.data.activityAdded.id);
    expect(ids).toEqual(projectEntries(h, anchor).slice(50));
    await until(() => pollerPolls(h).length > 0, 'pollerPolls(h).length > 0');
    const late = pushEntry(h, 'Bound', 'late');
    await h.gql(UPDATE, { id: configId('1', 1), name: 'Wake' });
    const [next] = await take(s, 1);
    expect(next.data.activityAdded.id).toBe(late.id);
    await closed(s);
  });
});

const FEEDS = { sse: sseFeed, ws: wsFeed };

const DOCUMENTED: [Transport, Dialect][] = [
  ['sse', 'spec'],
  ['ws', 'spec'],
  // Today's PostHog: the poller follows the log oldest first, the catch-up reads it newest first.
  ['sse', 'posthog-2026'],
  ['ws', 'posthog-2026'],
];

describe.each(DOCUMENTED)('the documented %s feed resumes across reconnects (%s)', (transport, dialect) => {
  let h: Harness;
  beforeAll(async () => {
    // Polls often, so that entries arrive while a client is connected and while it is not.
    h = await startHarness({ dialect, env: { ACTIVITY_POLL_MS: '100' } });
  });
  afterAll(() => h.close());

  it('during a burst of writes, loses nothing and doubles nothing', { timeout: 60_000 }, async () => {
    h.reset();
    const start = pushEntry(h, 'Burst', 'start');
    // The burst: 300 entries straight into the log, and a write through the gateway every 30th.
    let burstOver = false;
    const burst = (async () => {
      const writes: Promise<unknown>[] = [];
      for (let n = 0; n < 300; n++) {
        pushEntry(h, 'Burst', String(n));
        if (n % 30 === 0) writes.push(h.gql(UPDATE, { id: configId('1', 1), name: `Burst ${n}` }));
        await settle(5);
      }
      await Promise.all(writes);
      burstOver = true;
    })();
    const url = transport === 'sse' ? h.url : h.wsUrl;
    const received: string[] = [];
    const errors: string[] = [];
    const allIn = () => burstOver && received.length >= projectEntries(h, start).length;
    let after: string | null = start.id;
    let reconnects = 0;
    const deadline = Date.now() + 30_000;
    // Each connection is cut after 40 entries; the next resumes after the last entry received.
    while (Date.now() < deadline) {
      const cut = new AbortController();
      const target = received.length + 40;
      // Past the deadline the connection is cut too: an entry lost fails the comparison below, not the timeout.
      const watch = setInterval(() => (allIn() || Date.now() > deadline) && cut.abort(), 20);
      after = await FEEDS[transport].followActivity({
        url,
        key: 'phx_full',
        projectId: '1',
        after,
        signal: cut.signal,
        onEntry: (entry) => {
          received.push(entry.id);
          if (received.length >= target) cut.abort();
        },
        onError: (message) => errors.push(message),
      });
      clearInterval(watch);
      if (allIn()) break;
      reconnects++;
      // Disconnected a while: entries go on arriving meanwhile.
      await settle(25);
    }
    await burst;
    expect(errors).toEqual([]);
    expect(reconnects).toBeGreaterThanOrEqual(3);
    expect(new Set(received).size).toBe(received.length);
    expect(received).toEqual(projectEntries(h, start));
    expect(after).toBe(received.at(-1));
    await until(() => h.live.slots.open === 0, 'h.live.slots.open === 0');
    expect(h.live.slots.open).toBe(0);
  });

  it('reconnects on its own when the connection is cut under it, and loses nothing', {
    timeout: 60_000,
  }, async () => {
    if (dialect !== 'spec') return;
    h.reset();
    // A TCP proxy in front of the gateway, whose connections the test cuts.
    const gateway = new URL(h.url);
    const sockets = new Set<Socket>();
    let connections = 0;
    const proxy = createServer((client) => {
      connections++;
      const upstream = tcpConnect(Number(gateway.port), gateway.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as { port: number }).port;
    const url = `${transport === 'sse' ? 'http' : 'ws'}://127.0.0.1:${port}${gateway.pathname}`;
    const start = pushEntry(h, 'Cut', 'start');
    const received: string[] = [];
    const stop = new AbortController();
    const feed = FEEDS[transport].followActivity({
      url,
      key: 'phx_full',
      projectId: '1',
      after: start.id,
      signal: stop.signal,
      onEntry: (entry) => received.push(entry.id),
    });
    // 200 entries over about 3 s; the connection is cut whenever one has been up 300 ms (the feed
    // waits 1 s, then resumes), so entries arrive while connected and while not.
    let cuts = 0;
    let upSince = 0;
    for (let n = 0; n < 200; n++) {
      pushEntry(h, 'Cut', String(n));
      if (sockets.size === 0) upSince = 0;
      else if (upSince === 0) upSince = Date.now();
      else if (Date.now() - upSince > 300) {
        for (const socket of sockets) socket.destroy();
        cuts++;
        upSince = 0;
      }
      await settle(12);
    }
    const expected = projectEntries(h, start);
    await until(() => received.length >= expected.length, 'received.length >= expected.length');
    stop.abort();
    await feed;
    proxy.close();
    expect(received).toEqual(expected);
    expect(cuts).toBeGreaterThanOrEqual(2);
    expect(connections).toBeGreaterThan(cuts);
  });

  it('stops on a final answer: an `after` the log does not hold', async () => {
    h.reset();
    const url = transport === 'sse' ? h.url : h.wsUrl;
    const feed = FEEDS[transport].followActivity({
      url,
      key: 'phx_full',
      projectId: '1',
      after: '00000000-0000-0000-0000-000000000000',
      signal: new AbortController().signal,
      onEntry: () => {},
    });
    await expect(feed).rejects.toThrow(/^BAD_USER_INPUT: `after`/);
  });

  it('runs as the docs say: `node --import tsx examples/activity-feed-….ts <project> <after>`', {
    timeout: 30_000,
  }, async () => {
    h.reset();
    const start = pushEntry(h, 'Cli', 'start');
    const next = pushEntry(h, 'Cli', 'next');
    const file = `examples/activity-feed-${transport}.ts`;
    const child = spawn(process.execPath, ['--import', 'tsx', file, '1', start.id], {
      cwd: ROOT,
      env: { ...process.env, GATEWAY_URL: transport === 'sse' ? h.url : h.wsUrl, POSTHOG_KEY: 'phx_full' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await until(() => stdout.includes('\n'), 'stdout.includes("\n")', { withinMs: 20_000 });
    expect(JSON.parse(stdout.split('\n')[0]!)).toMatchObject({ id: next.id, scope: 'Cli', itemId: 'next' });
    child.kill('SIGINT');
    await exited;
    // It says where to resume from: the last entry it printed.
    expect(stderr).toContain(`${file} 1 ${next.id}`);
  });
});

it('docs/live-updates.md shows each reconnecting client as the file this test runs', () => {
  for (const transport of ['sse', 'ws']) {
    const file = `examples/activity-feed-${transport}.ts`;
    const shown = codeBlocks('docs/live-updates.md').filter((b) => b.marker === `<!-- file ${file} -->`);
    expect(shown, file).toHaveLength(1);
    expect(`${shown[0]!.code}\n`).toBe(readFileSync(`${ROOT}${file}`, 'utf8'));
  }
});
