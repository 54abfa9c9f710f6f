// Every refusal says what to do (issue 43): a key without `Bearer`, a request without a key (one
// error, not one per field, while what needs no key still answers), an answer in parts asked for
// as JSON only (406), a browser's preflight while CORS is off, and a choice that is not one.
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const SCREEN = `query Screen { project(projectId: "1") {
  name destinations(first: 2) { totalCount } activityLog(first: 1) { edges { cursor } } } }`;

const codes = (body: { errors?: { extensions: { code: string } }[] }) =>
  (body.errors ?? []).map((e) => e.extensions.code);

describe('refusals that say what to do', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect: 'posthog-2026' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('a key without "Bearer " is refused by the gateway, saying to send "Authorization: Bearer <key>"', async () => {
    for (const header of ['phx_full', 'Token phx_full', 'Bearer', 'Basic cGh4X2Z1bGw=']) {
      const { body } = await h.post(JSON.stringify({ query: SCREEN }), { authorization: header });
      expect(body.errors).toEqual([
        {
          message:
            'The Authorization header is not "Bearer <key>": send your PostHog personal API key as "Authorization: Bearer <key>" (the word Bearer, a space, the key).',
          extensions: { code: 'UNAUTHENTICATED' },
        },
      ]);
    }
    // A subscription over SSE hears the same, before it starts.
    const feed = await fetch(h.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: 'phx_full' },
      body: JSON.stringify({ query: 'subscription Feed { activityAdded(projectId: "1") { activity } }' }),
    });
    expect(await feed.text()).toContain('The Authorization header is not \\"Bearer <key>\\"');
    expect(h.upstreamCalls()).toHaveLength(0);
    // Any spelling of the scheme is a key.
    const lower = await h.post(JSON.stringify({ query: SCREEN }), { authorization: 'bearer   phx_full' });
    expect(lower.body.errors).toBeUndefined();
  });

  it('a request without a key gets one UNAUTHENTICATED when nothing could be answered, with no upstream call', async () => {
    // A blank header is no key either.
    const blank = await h.post(JSON.stringify({ query: SCREEN }), { authorization: '   ' });
    expect(codes(blank.body)).toEqual(['UNAUTHENTICATED']);
    const { body } = await h.gql(SCREEN, {}, null);
    expect(body).toEqual({
      data: { project: { name: null, destinations: null, activityLog: null } },
      errors: [
        {
          message: 'Send your PostHog personal API key as "Authorization: Bearer <key>".',
          extensions: { code: 'UNAUTHENTICATED' },
        },
      ],
    });
    const mutation = await h.gql(
      'mutation Make { createHogFunction(input: { projectId: "1", templateId: "template-slack" }) { hogFunction { id } } }',
      {},
      null,
    );
    expect(codes(mutation.body)).toEqual(['UNAUTHENTICATED']);
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('what needs no key still answers without one: introspection, __typename, a numeric project’s ids', async () => {
    const introspection = await h.gql(getIntrospectionQuery(), {}, null);
    expect(introspection.body.errors).toBeUndefined();
    expect(introspection.body.data.__schema.queryType.name).toBe('Query');
    expect((await h.gql('{ __typename }', {}, null)).body).toEqual({ data: { __typename: 'Query' } });
    const ids = await h.gql('{ project(projectId: "1") { id projectId } }', {}, null);
    expect(ids.body.errors).toBeUndefined();
    expect(ids.body.data.project.projectId).toBe('1');
    // Beside a field that needs a key, that field's error stays where it is.
    const mixed = await h.gql('{ project(projectId: "1") { projectId name } }', {}, null);
    expect(mixed.body.data.project).toEqual({ projectId: '1', name: null });
    expect(mixed.body.errors).toMatchObject([
      { path: ['project', 'name'], extensions: { code: 'UNAUTHENTICATED' } },
    ]);
    expect(h.upstreamCalls()).toHaveLength(0);
  });

  it('a subscription, @live or @defer accepted only as JSON: 406 with a coded error naming the Accept to send', async () => {
    for (const query of [
      'subscription Feed { activityAdded(projectId: "1") { activity } }',
      'query Live @live { project(projectId: "1") { name } }',
      'query Later { project(projectId: "1") { name ... @defer { activityLog(first: 1) { edges { cursor } } } } }',
    ]) {
      const answer = await h.post(JSON.stringify({ query }), {
        authorization: 'Bearer phx_full',
        accept: 'application/json',
      });
      expect(answer.status).toBe(406);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(codes(answer.body)).toEqual(['NOT_ACCEPTABLE']);
      expect(answer.body.errors[0].message).toContain(
        'send "Accept: text/event-stream" (SSE) or "Accept: multipart/mixed"',
      );
    }
    expect(h.upstreamCalls()).toHaveLength(0);
    // Asked as a multipart client asks, the same @defer answers.
    const parts = await fetch(h.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'multipart/mixed',
        authorization: 'Bearer phx_full',
      },
      body: JSON.stringify({
        query: 'query Later { project(projectId: "1") { name ... @defer { projectId } } }',
      }),
    });
    expect(parts.status).toBe(200);
    expect(await parts.text()).toContain('"projectId":"1"');
  });

  it('a browser’s CORS preflight while CORS is off: 403 with a coded error naming CORS_ORIGINS', async () => {
    const response = await fetch(h.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(await response.json()).toEqual({
      errors: [
        {
          message:
            'Cross-origin requests are off, so a browser page on https://app.example cannot call this gateway: list the origins that may in CORS_ORIGINS (e.g. CORS_ORIGINS=https://app.example) and restart it.',
          extensions: { code: 'CORS_ORIGIN_NOT_ALLOWED' },
        },
      ],
    });
  });

  it('a choice that is not one lists the choices: an enum of the schema, a hog function’s type, a batch export’s model', async () => {
    const kinds = await h.gql(
      'query Kinds($kinds: [DestinationKind!]) { project(projectId: "1") { destinations(first: 1, kinds: $kinds) { totalCount } } }',
      { kinds: ['WEBHOOK'] },
    );
    expect(codes(kinds.body)).toEqual(['BAD_USER_INPUT']);
    expect(kinds.body.errors[0].message).toContain(
      'Choose one of: BATCH_EXPORT, HOG_FUNCTION, PLUGIN_CONFIG.',
    );
    const inline = await h.gql(
      '{ project(projectId: "1") { destinations(first: 1, kinds: [WEBHOOK]) { totalCount } } }',
    );
    expect(inline.body.errors[0].message).toContain(
      'Choose one of: BATCH_EXPORT, HOG_FUNCTION, PLUGIN_CONFIG.',
    );

    const created = await h.gql(
      'mutation Make { createHogFunction(input: { projectId: "1", type: "webhook", name: "x", hog: "return event" }) { hogFunction { id } } }',
    );
    expect(created.body.errors).toMatchObject([
      {
        message:
          '"webhook" is not a valid choice. Choose one of: destination, site_destination, internal_destination, source_webhook, site_app, transformation, transformation_log.',
        extensions: { code: 'BAD_USER_INPUT', field: 'type', upstream: { code: 'invalid_choice' } },
      },
    ]);
    const exported = await h.gql(
      'mutation Export { createBatchExport(input: { projectId: "1", name: "x", interval: "hour", model: "clicks", destinationType: "NoOp", destinationConfig: {} }) { batchExport { id } } }',
    );
    expect(exported.body.errors).toMatchObject([
      {
        message: '"clicks" is not a valid choice. Choose one of: events, persons, sessions, hogql.',
        extensions: { code: 'BAD_USER_INPUT', field: 'model' },
      },
    ]);
  });
});

describe('the CORS preflight with CORS_ORIGINS set', () => {
  it('is yoga’s: allowed for a listed origin', async () => {
    const h = await startHarness({ env: { CORS_ORIGINS: 'https://app.example' } });
    try {
      const response = await fetch(h.url, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      expect(response.status).toBeLessThan(300);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    } finally {
      await h.close();
    }
  });
});
