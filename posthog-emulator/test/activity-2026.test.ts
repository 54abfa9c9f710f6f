// The activity log's edges in the 2026 dialect, as posthog/api/advanced_activity_logs/viewset.py
// and permissions.py@1b10cf8 answer them: entries in ActivityLogSerializer's field order with a
// UserBasicSerializer user, `scope` AND `scopes`, the paywall's exemption on their intersection,
// DRF's page-size and page edges, and the follow cursor with nothing to follow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const LOG = '/api/projects/1/activity_log/';

describe('PostHog 2026: activity log edges', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  const total = () => upstream.store.activity.filter((e) => e.projectId === 1).length;

  it('answers entries in the serializer field order, the user as UserBasicSerializer', async () => {
    const { body } = await rest(upstream, 'GET', `${LOG}?user=1&page_size=1`);
    expect(Object.keys(body.results[0])).toEqual([
      'id',
      'user',
      'unread',
      'team_id',
      'organization_id',
      'was_impersonated',
      'is_system',
      'client',
      'ip_address',
      'credential_type',
      'activity',
      'item_id',
      'scope',
      'detail',
      'created_at',
    ]);
    expect(body.results[0].user.role_at_organization).toBeNull();
    expect(body.results[0].user.hedgehog_config).toEqual({
      use_as_profile: true,
      color: 'blue',
      accessories: ['beret'],
      skin: null,
    });
  });

  it('reads advanced_activity_logs lists as JSONTolerantListField does: repeated or one JSON array, never a comma list', async () => {
    // posthog/api/advanced_activity_logs/viewset.py@1b10cf8: AdvancedActivityLogFiltersSerializer
    // (data=request.query_params); item_ids and scopes are JSONTolerantListFields.
    const ADVANCED = '/api/projects/1/advanced_activity_logs/';
    const items = [
      ...new Set(
        upstream.store.activity.filter((e) => e.projectId === 1 && e.item_id).map((e) => String(e.item_id)),
      ),
    ].slice(0, 2);
    expect(items).toHaveLength(2);
    const ids = async (query: string) => {
      const { body } = await rest(upstream, 'GET', `${ADVANCED}?page_size=1000&${query}`);
      return new Set(body.results.map((e: { item_id: string }) => String(e.item_id)));
    };
    expect(await ids(`item_ids=${items[0]}&item_ids=${items[1]}`)).toEqual(new Set(items));
    expect(await ids(`item_ids=${encodeURIComponent(JSON.stringify(items))}`)).toEqual(new Set(items));
    expect(await ids(`item_ids=${items[0]},${items[1]}`)).toEqual(new Set());
  });

  it('filters by scope AND scopes', async () => {
    const both = await rest(
      upstream,
      'GET',
      `${LOG}?scope=FeatureFlag&scopes=FeatureFlag,Insight&page_size=1000`,
    );
    expect(new Set(both.body.results.map((e: { scope: string }) => e.scope))).toEqual(
      new Set(['FeatureFlag']),
    );
    const none = await rest(upstream, 'GET', `${LOG}?scope=FeatureFlag&scopes=Insight`);
    expect(none.body.results).toEqual([]);
  });

  it('exempts from the paywall only what scope and scopes together can reach', async () => {
    const other = { key: 'phx_other' };
    const path = '/api/projects/3/activity_log/';
    expect(
      (
        await rest(
          upstream,
          'GET',
          `${path}?scopes=${encodeURIComponent('["FeatureFlag","Experiment"]')}`,
          other,
        )
      ).status,
    ).toBe(200);
    expect((await rest(upstream, 'GET', `${path}?scope=FeatureFlag&scopes=Insight`, other)).status).toBe(402);
    expect((await rest(upstream, 'GET', `${path}?scopes=FeatureFlag,Insight`, other)).status).toBe(402);
  });

  it('reads page_size as DRF does: 0 or not a number is the default, over 1000 is 1000', async () => {
    for (const size of ['0', 'abc', '-1']) {
      const { body } = await rest(upstream, 'GET', `${LOG}?page_size=${size}`);
      expect([size, body.results.length]).toEqual([size, Math.min(100, total())]);
    }
  });

  it('numbers pages: page=last is the last one, anything else that is not a page is 404 "Invalid page."', async () => {
    const last = await rest(upstream, 'GET', `${LOG}?page=last&page_size=50`);
    expect(last.body.results).toHaveLength(total() % 50 || 50);
    expect(last.body.next).toBeNull();
    for (const page of ['0', 'abc', '999']) {
      const answer = await rest(upstream, 'GET', `${LOG}?page=${page}`);
      expect([page, answer.status, answer.body.detail]).toEqual([page, 404, 'Invalid page.']);
    }
  });

  it('follows nothing when there is no cursor and no entry: next is null', async () => {
    const { body } = await rest(upstream, 'GET', `${LOG}?ordering=created_at&follow=true&item_id=none`);
    expect([body.results, body.next]).toEqual([[], null]);
    const descending = await rest(upstream, 'GET', `${LOG}?follow=true&item_id=none`);
    expect(descending.body.next).toBeNull();
  });

  it('answers 500 to a user filter that is not a user id (Django cannot make it an integer)', async () => {
    const answer = await rest(upstream, 'GET', `${LOG}?user=0190ffff-0000-7000-8000-000000000001`);
    expect([answer.status, answer.body.code]).toEqual([500, 'error']);
  });
});
