// What a shared cache or a browser may do with an answer: a GraphQL answer over GET is the
// caller's own (`Cache-Control: private, no-store`, `Vary: Authorization` beside the Vary values
// already there), and with CORS_ORIGINS set a page whose Origin is `null` (a sandboxed frame, a
// file:// page) is never allowed, preflight included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const ALLOWED = 'https://app.example.com';
const OTHER = 'https://admin.example.com';

const varyOf = (headers: Headers) =>
  (headers.get('vary') ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

const getQuery = (h: Harness, headers: Record<string, string>, query = '{ __typename }') =>
  fetch(`${h.url}?query=${encodeURIComponent(query)}`, {
    headers: { accept: 'application/graphql-response+json, application/json', ...headers },
  });

const preflight = (h: Harness, origin: string) =>
  fetch(h.url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });

describe.each([
  ['one origin', ALLOWED],
  ['two origins', `${ALLOWED},${OTHER}`],
])('HTTP caching and CORS with %s in CORS_ORIGINS', (_name, origins) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { CORS_ORIGINS: origins } });
  });
  afterAll(() => h.close());

  it('a GET answer is private and not stored, varies by Authorization, and keeps its other Vary values', async () => {
    const answer = await getQuery(h, { authorization: 'Bearer phx_full', origin: ALLOWED });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ data: { __typename: 'Query' } });
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    expect(answer.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    const vary = varyOf(answer.headers);
    expect(vary).toContain('authorization');
    if (origins.includes(',')) expect(vary).toContain('origin');
    expect(new Set(vary).size).toBe(vary.length);
  });

  it("lets an allowed origin's page read the RateLimit fields", async () => {
    const answer = await getQuery(h, { authorization: 'Bearer phx_full', origin: ALLOWED });
    const exposed = (answer.headers.get('access-control-expose-headers') ?? '')
      .split(',')
      .map((v) => v.trim().toLowerCase());
    expect(exposed).toEqual(expect.arrayContaining(['ratelimit', 'ratelimit-policy']));
    const other = await getQuery(h, { authorization: 'Bearer phx_full', origin: 'https://evil.example.net' });
    expect(other.headers.get('access-control-expose-headers')).toBeNull();
  });

  it('a refused GET answer and one without a key are not stored either', async () => {
    for (const answer of [
      await getQuery(h, {}, '{ project(projectId: "1") { name } }'),
      await getQuery(h, { authorization: 'Bearer phx_full' }, '{ nope }'),
    ]) {
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
      expect(varyOf(answer.headers)).toContain('authorization');
    }
  });

  it('never allows Origin: null, on a preflight or on the request itself', async () => {
    const before = await preflight(h, 'null');
    expect(before.headers.get('access-control-allow-origin')).toBeNull();
    expect(before.headers.get('access-control-allow-headers')).toBeNull();
    const post = await fetch(h.url, {
      method: 'POST',
      headers: { origin: 'null', 'content-type': 'application/json', authorization: 'Bearer phx_full' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
    const get = await getQuery(h, { origin: 'null' });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows a listed origin and leaves an unlisted one without any allow-origin', async () => {
    const allowed = await preflight(h, ALLOWED);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    const unlisted = await preflight(h, 'https://evil.example.net');
    expect(unlisted.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('HTTP caching with CORS off', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('a GET answer is private and not stored, and allows no origin', async () => {
    const get = await getQuery(h, { authorization: 'Bearer phx_full' });
    expect(get.headers.get('cache-control')).toBe('private, no-store');
    expect(varyOf(get.headers)).toContain('authorization');
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });
});
