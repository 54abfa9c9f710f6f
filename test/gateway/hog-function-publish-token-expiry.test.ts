// publishHogFunctionDraft with a confirm token past its 15 minutes (hog_function.py@0019077,
// PUBLISH_CONFIRM_TOKEN_MAX_AGE), minted old by the reference upstream's control route: PostHog's
// 400 on confirm_token reaches the caller as BAD_USER_INPUT on that field with PostHog's message,
// sent once and nothing published; a fresh preview's token then publishes (the preview reading
// the function only when asked for it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const WEBHOOK = '018f0a5e-0007-7000-8000-000000000001';
const PUBLISH_PATH = `/api/projects/1/hog_functions/${WEBHOOK}/publish/`;
const ID = Buffer.from(`HogFunction:1:${WEBHOOK}`).toString('base64');
const PUBLISH =
  'mutation($id: ID!, $token: String) { publishHogFunctionDraft(input: {id: $id, confirmToken: $token}) { hogFunction { hog draft { hog } } } }';
const PREVIEW = 'mutation($id: ID!) { previewHogFunctionPublish(input: {id: $id}) { confirmToken } }';

describe('an expired publish token through the gateway', () => {
  let h: Harness;
  const control = (path: string, json: unknown) =>
    fetch(`${h.upstream.url}/__control/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());

  it('is BAD_USER_INPUT on confirm_token, sent once; a fresh preview’s token publishes', async () => {
    await control('hog-function-draft', { id: WEBHOOK, fields: { hog: 'return null' } });
    const minted = await control('hog-function-publish-token', { id: WEBHOOK, ageSeconds: 16 * 60 });
    const { confirm_token: old } = (await minted.json()) as { confirm_token: string };
    const before = h.upstreamCalls({ method: 'POST', path: PUBLISH_PATH }).length;
    const expired = await h.gql(PUBLISH, { id: ID, token: old });
    expect(expired.body.data.publishHogFunctionDraft).toBeNull();
    expect(expired.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'confirm_token',
    });
    expect(expired.body.errors[0].message).toContain(
      'Expired. Preview the publish again to get a fresh token.',
    );
    expect(h.upstreamCalls({ method: 'POST', path: PUBLISH_PATH }).length - before).toBe(1);

    // The preview reads the function only when its hogFunction is selected.
    const callsBefore = h.upstreamCalls().length;
    const fresh = await h.gql(PREVIEW, { id: ID });
    expect(
      h
        .upstreamCalls()
        .slice(callsBefore)
        .map((c) => `${c.method} ${c.path}`),
    ).toEqual([`POST ${PUBLISH_PATH}`]);
    const published = await h.gql(PUBLISH, {
      id: ID,
      token: fresh.body.data.previewHogFunctionPublish.confirmToken,
    });
    expect(published.body).toEqual({
      data: { publishHogFunctionDraft: { hogFunction: { hog: 'return null', draft: null } } },
    });
  });
});
