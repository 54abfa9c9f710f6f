// What a soft delete through the API logs in the 2026 dialect: HogFunctionViewSet.perform_update
// (products/cdp/backend/api/hog_function.py@0019077) calls log_activity_from_viewset with
// `activity=None` and the row as it was, as for any update, so `PATCH {"deleted": true}` is an
// `updated` entry whose changes say `deleted` went from false to true (and back on restore).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const FUNCTIONS = '/api/projects/1/hog_functions/';

describe('hog function soft delete activity, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const idOf = (name: string) => [...upstream.store.hogFunctions.values()].find((f) => f.name === name)!.id;
  const last = () => upstream.store.activity.at(-1)!;

  it('logs a PATCH {"deleted": true} as updated, with the change of `deleted`', async () => {
    const webhook = idOf('Webhook to ops');
    expect(
      (await rest(upstream, 'PATCH', `${FUNCTIONS}${webhook}/`, { json: { deleted: true } })).status,
    ).toBe(200);
    expect(last()).toMatchObject({ scope: 'HogFunction', item_id: webhook, activity: 'updated' });
    expect((last().detail as { changes: unknown }).changes).toEqual([
      { type: 'HogFunction', action: 'changed', field: 'deleted', before: false, after: true },
    ]);
    expect(
      (await rest(upstream, 'PATCH', `${FUNCTIONS}${webhook}/`, { json: { deleted: false } })).status,
    ).toBe(200);
    expect(last().activity).toBe('updated');
    expect((last().detail as { changes: unknown }).changes).toEqual([
      { type: 'HogFunction', action: 'changed', field: 'deleted', before: true, after: false },
    ]);
  });
});
