// /__control/answer-headers, a test control (not a PostHog fact): headers added to the answers of
// the paths a rule matches, whatever their status, such as a going route's Deprecation and Sunset.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const CONFIG = '/api/projects/1/pipeline_destination_configs/2/';
const GOING = {
  deprecation: '@1735689600',
  sunset: 'Wed, 31 Dec 2025 23:59:59 GMT',
  link: '<https://posthog.com/docs>; rel="sunset"',
};

async function control(upstream: ReferenceUpstream, method: string, json?: unknown) {
  const response = await fetch(new URL('/__control/answer-headers', upstream.url), {
    method,
    headers: json === undefined ? {} : { 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const going = (headers: Headers) => ({
  deprecation: headers.get('deprecation'),
  sunset: headers.get('sunset'),
  link: headers.get('link'),
});

describe('the answer-headers test control', () => {
  let upstream: ReferenceUpstream;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  it('adds the headers to every answer of a matching path and method, and to no other', async () => {
    const added = await control(upstream, 'POST', {
      path: '/pipeline_destination_configs/\\d+/$/',
      method: 'GET',
      headers: GOING,
    });
    expect(added.status).toBe(201);
    const read = await rest(upstream, 'GET', CONFIG);
    expect(read.status).toBe(200);
    expect(going(read.headers)).toEqual(GOING);
    // A refusal carries them too.
    const refused = await rest(upstream, 'GET', CONFIG, { key: 'phx_nope' });
    expect(refused.status).toBe(401);
    expect(going(refused.headers)).toEqual(GOING);
    const list = await rest(upstream, 'GET', '/api/projects/1/pipeline_destination_configs/');
    expect(list.status).toBe(200);
    expect(list.headers.get('deprecation')).toBeNull();
    const write = await rest(upstream, 'PATCH', CONFIG, { json: { order: 1 } });
    expect(write.headers.get('deprecation')).toBeNull();
    expect((await control(upstream, 'GET')).body).toEqual([
      expect.objectContaining({ path: '/pipeline_destination_configs/\\d+/$/', headers: GOING }),
    ]);
  });

  it('goes with DELETE, with a reset, and with DELETE /__control/faults', async () => {
    upstream.faults.headers.add({ path: CONFIG, headers: { sunset: GOING.sunset } });
    expect((await rest(upstream, 'GET', CONFIG)).headers.get('sunset')).toBe(GOING.sunset);
    expect((await control(upstream, 'DELETE')).status).toBe(204);
    expect((await rest(upstream, 'GET', CONFIG)).headers.get('sunset')).toBeNull();
    upstream.faults.headers.add({ path: CONFIG, headers: { sunset: GOING.sunset } });
    upstream.reset();
    expect((await rest(upstream, 'GET', CONFIG)).headers.get('sunset')).toBeNull();
    upstream.faults.headers.add({ path: CONFIG, headers: { sunset: GOING.sunset } });
    await fetch(new URL('/__control/faults', upstream.url), { method: 'DELETE' });
    expect((await rest(upstream, 'GET', CONFIG)).headers.get('sunset')).toBeNull();
  });

  it('refuses a rule without a path, or with a header name or value HTTP does not allow', async () => {
    for (const rule of [
      { headers: GOING },
      { path: 'configs' },
      { path: 'configs', headers: { 'bad name': 'x' } },
      { path: 'configs', headers: { sunset: 'a\r\nx-injected: 1' } },
      { path: 'configs', headers: { sunset: 7 } },
    ]) {
      const refused = await control(upstream, 'POST', rule);
      expect([rule, refused.status]).toEqual([rule, 400]);
    }
    expect((await control(upstream, 'GET')).body).toEqual([]);
  });
});
