// The publish confirm token's 15 minutes (hog_function.py@0019077, PUBLISH_CONFIRM_TOKEN_MAX_AGE and
// _unsign_publish_confirm_token), without waiting them: POST /__control/hog-function-publish-token
// mints the token a preview would have handed `ageSeconds` ago. Past 15 minutes it is refused with
// PostHog's 400 on confirm_token and nothing is published; within them it publishes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const WEBHOOK = '018f0a5e-0007-7000-8000-000000000001';
const PUBLISH = `/api/projects/1/hog_functions/${WEBHOOK}/publish/`;

describe('hog function publish token expiry, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  const control = async (path: string, json: unknown) => {
    const response = await fetch(`${upstream.url}/__control/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    // biome-ignore lint/suspicious/noExplicitAny: test answers are inspected field by field.
    const body: any = await response.json();
    return { status: response.status, body };
  };
  const oldToken = async (ageSeconds: number) =>
    (await control('hog-function-publish-token', { id: WEBHOOK, ageSeconds })).body.confirm_token as string;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(async () => {
    upstream.reset();
    await control('hog-function-draft', { id: WEBHOOK, fields: { hog: 'return null' } });
  });

  it('refuses a token older than 15 minutes as PostHog does, and publishes nothing', async () => {
    const refused = await rest(upstream, 'POST', PUBLISH, {
      json: { confirm: true, confirm_token: await oldToken(16 * 60) },
    });
    expect([refused.status, refused.body]).toEqual([
      400,
      {
        type: 'validation_error',
        code: 'invalid_input',
        detail: 'Expired. Preview the publish again to get a fresh token.',
        attr: 'confirm_token',
      },
    ]);
    expect(upstream.store.hogFunctions.get(WEBHOOK)!.draft?.content.hog).toBe('return null');
  });

  it('publishes with a token minted 14 minutes ago', async () => {
    const published = await rest(upstream, 'POST', PUBLISH, {
      json: { confirm: true, confirm_token: await oldToken(14 * 60) },
    });
    expect([published.status, published.body.function.hog]).toEqual([200, 'return null']);
  });

  it('mints only for a function with a staged draft, and an age of 0 or more seconds', async () => {
    expect((await control('hog-function-publish-token', { id: WEBHOOK, ageSeconds: -1 })).status).toBe(400);
    const missing = await control('hog-function-publish-token', {
      id: '018f0a5e-0007-7000-8000-0000000000ff',
      ageSeconds: 0,
    });
    expect(missing.status).toBe(404);
    await rest(upstream, 'POST', `/api/projects/1/hog_functions/${WEBHOOK}/discard_draft/`);
    expect((await control('hog-function-publish-token', { id: WEBHOOK, ageSeconds: 0 })).status).toBe(400);
  });
});
