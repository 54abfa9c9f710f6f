import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../src/dialect.ts';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { pathOf, rest } from './rest.ts';

const LOG = '/api/projects/1/activity_log/';

interface Entry {
  id: string;
  created_at: string;
  scope: string;
  item_id: string;
  unread: boolean;
  user: { id: number } | null;
}

async function walk(upstream: ReferenceUpstream, first: string) {
  const entries: Entry[] = [];
  const pages: string[] = [];
  let path: string | null = first;
  while (path) {
    pages.push(path);
    const { status, body } = await rest(upstream, 'GET', path);
    expect(status).toBe(200);
    entries.push(...body.results);
    path = body.next ? pathOf(body.next) : null;
  }
  return { entries, pages };
}

describe.each(DIALECTS)('activity log, %s dialect', (dialect) => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  it('walks all 260 entries through cursors, newest first, with no gap or duplicate', async () => {
    const first = await rest(upstream, 'GET', LOG);
    expect(Object.keys(first.body)).toEqual(['next', 'previous', 'results']);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toMatch(new RegExp(`^${upstream.url}${LOG}\\?cursor=`));
    const { entries, pages } = await walk(upstream, LOG);
    expect(pages).toHaveLength(3);
    expect(entries).toHaveLength(260);
    expect(new Set(entries.map((e) => e.id)).size).toBe(260);
    const times = entries.map((e) => e.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(entries.every((e) => e.unread === false)).toBe(true);
  });

  it('encodes cursors as base64 of the position, and a previous link returns the page before', async () => {
    const first = await rest(upstream, 'GET', LOG);
    const cursor = new URL(first.body.next).searchParams.get('cursor')!;
    expect(Buffer.from(cursor, 'base64').toString()).toMatch(/^p=\d{4}-\d\d-\d\d\+\d\d%3A\d\d%3A\d\d/);
    const second = await rest(upstream, 'GET', pathOf(first.body.next));
    const back = new URL(second.body.previous).searchParams.get('cursor')!;
    expect(Buffer.from(back, 'base64').toString()).toMatch(/^r=1&p=/);
    const again = await rest(upstream, 'GET', pathOf(second.body.previous));
    expect(again.body.results.map((e: Entry) => e.id)).toEqual(first.body.results.map((e: Entry) => e.id));
  });

  it('carries filters in its links, sorted', async () => {
    const first = await rest(upstream, 'GET', `${LOG}?scope=PluginConfig`);
    expect(first.body.results).toHaveLength(100);
    const next = new URL(first.body.next);
    expect([...next.searchParams.keys()]).toEqual(['cursor', 'scope']);
    const { entries } = await walk(upstream, `${LOG}?scope=PluginConfig`);
    expect(entries.length).toBeGreaterThan(100);
    expect(entries.every((e) => e.scope === 'PluginConfig')).toBe(true);
  });

  it('filters by user, scope and item_id exactly', async () => {
    const { body } = await rest(upstream, 'GET', `${LOG}?user=2&scope=PluginConfig&item_id=3`);
    expect(body.results.length).toBeGreaterThan(0);
    for (const e of body.results)
      expect(e).toMatchObject({ user: { id: 2 }, scope: 'PluginConfig', item_id: '3' });
    const none = await rest(upstream, 'GET', `${LOG}?item_id=3x`);
    expect(none.body.results).toEqual([]);
  });

  it('answers 404 Invalid cursor for a bad cursor', async () => {
    for (const cursor of [
      'nope!',
      Buffer.from('p=yesterday').toString('base64'),
      Buffer.from('o=x').toString('base64'),
      // Python's b64decode: padding must complete the last quantum, and the text must be ASCII.
      'cD0',
      Buffer.from('p=2025-01-01 00:00:00+00:00').toString('base64').replace(/=+$/, ''),
      Buffer.from('p=é').toString('base64'),
    ]) {
      const { status, body } = await rest(upstream, 'GET', `${LOG}?cursor=${encodeURIComponent(cursor)}`);
      expect(status).toBe(404);
      expect(body).toEqual({
        type: 'invalid_request',
        code: 'not_found',
        detail: 'Invalid cursor',
        attr: null,
      });
    }
  });

  it('serves important changes as its dialect does, with unread after the bookmark', async () => {
    const key = 'phx_legacy';
    const path = '/api/projects/1/activity_log/important_changes';
    const before = await rest(upstream, 'GET', path, { key });
    expect(before.status).toBe(200);
    if (dialect === 'posthog') {
      expect(Object.keys(before.body)).toEqual(['results', 'last_read']);
      expect(before.body.results).toHaveLength(10);
      expect(before.body.last_read).toBeNull();
      expect(before.body.results.every((e: Entry) => e.unread && e.user?.id !== 1)).toBe(true);
    } else {
      expect(before.body).toMatchObject({ unread: true, scope: expect.any(String) });
    }
    const bookmarkAt = '2030-01-01T00:00:00.000Z';
    const marked = await rest(
      upstream,
      'POST',
      '/api/projects/1/activity_log/bookmark_activity_notification',
      {
        key,
        json: { bookmark: bookmarkAt },
      },
    );
    if (dialect === 'posthog') {
      expect(marked.status).toBe(204);
      const after = await rest(upstream, 'GET', path, { key });
      expect(after.body.last_read).toBe(bookmarkAt);
      expect(after.body.results.every((e: Entry) => !e.unread)).toBe(true);
      const unreadOnly = await rest(upstream, 'GET', `${path}?unread=true`, { key });
      expect(unreadOnly.body.results).toEqual([]);
    } else {
      expect(marked.status).toBe(200);
      expect(marked.body).toMatchObject({ id: expect.any(String), unread: false });
    }
  });

  it('refuses a bookmark without a date', async () => {
    const { status, body } = await rest(
      upstream,
      'POST',
      '/api/projects/1/activity_log/bookmark_activity_notification',
      {
        key: 'phx_legacy',
        json: {},
      },
    );
    expect(status).toBe(400);
    expect(body).toEqual({
      type: 'validation_error',
      code: 'invalid_input',
      detail: 'must provide a bookmark date',
      attr: null,
    });
  });
});
