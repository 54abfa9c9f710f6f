// Retry-After is the upstream's word, and words can be absurd: a wait of 99,999,999 seconds (or a
// date years ahead) overflowed setTimeout, which then fired after 1 ms (the activity poller hot-
// looped at ~600 GETs a second), and a date in the past answered RATE_LIMITED with retryAfter 0
// instead of retrying. Waits are now between 1 second and MAX_RETRY_AFTER_MS (5 minutes unless
// set), both ways, and the HTTP-date is read in each of its three forms (RFC 9110 §5.6.7).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscribe } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { settle, until } from '../support/wait.ts';

const TEN_YEARS_MS = 10 * 365 * 86_400_000;
const FAR = ['99999999', new Date(Date.now() + TEN_YEARS_MS).toUTCString()];

/** `at` in the HTTP-date's three forms: IMF-fixdate, RFC 850 and asctime. */
function httpDates(at: number): string[] {
  const d = new Date(at);
  const [weekday, day, month, year, time] = d.toUTCString().replace(',', '').split(' ');
  const long = d.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
  return [
    d.toUTCString(),
    `${long}, ${day}-${month}-${year!.slice(2)} ${time} GMT`,
    `${weekday} ${month} ${String(d.getUTCDate()).padStart(2, ' ')} ${time} ${year}`,
  ];
}

describe('Retry-After, sane both ways', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { ACTIVITY_POLL_MS: '100' } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const polls = () => h.upstreamCalls().filter((c) => c.path.endsWith('/activity_log/'));

  it.each(FAR)('a poller told to wait %s waits 5 minutes, not 1 ms', async (retryAfter) => {
    const s = subscribe(h, 'sse', 'phx_full', 'subscription { activityAdded(projectId: "1") { id } }');
    const event = s.next();
    await until(() => polls().length > 0, 'polls().length > 0');
    h.upstream.faults.add({
      path: '/activity_log/',
      action: { kind: 'status', status: 429, headers: { 'retry-after': retryAfter } },
      times: 1_000,
    });
    await until(() => polls().some((c) => c.status === 429), 'polls().some((c) => c.status === 429)');
    const limited = (await event).value;
    expect(limited.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 300 });
    await settle(500);
    expect(polls().filter((c) => c.status === 429)).toHaveLength(1);
    await s.return();
    s.dispose();
  });

  it.each(
    FAR,
  )('a query told to wait %s is RATE_LIMITED with retryAfter 300, after one call', async (retryAfter) => {
    h.upstream.faults.add({
      path: '/api/projects/1/',
      action: { kind: 'status', status: 429, headers: { 'retry-after': retryAfter } },
      times: 1,
    });
    const { body } = await h.gql('{ project(projectId: "1") { name } }');
    expect(body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 300 });
    expect(h.upstreamCalls()).toHaveLength(1);
  });

  it('a query told to wait until a date in the past is retried after a second, and answers', async () => {
    h.upstream.faults.add({
      path: '/api/projects/1/',
      action: {
        kind: 'status',
        status: 429,
        headers: { 'retry-after': new Date(Date.now() - 60_000).toUTCString() },
      },
      times: 1,
    });
    const { body } = await h.gql('{ project(projectId: "1") { name } }');
    expect(body.errors).toBeUndefined();
    expect(body.data.project.name).toBe('Hedgebox (production)');
    const calls = h.upstreamCalls();
    expect(calls.map((c) => c.status)).toEqual([429, 200]);
    expect(calls[1]!.start - calls[0]!.end).toBeGreaterThanOrEqual(990);
  });
});

describe('Retry-After read in each of its forms, and capped by MAX_RETRY_AFTER_MS', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { MAX_RETRY_AFTER_MS: '120000' } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const limitedBy = async (retryAfter: string) => {
    h.upstream.faults.add({
      path: '/api/projects/1/',
      action: { kind: 'status', status: 429, headers: { 'retry-after': retryAfter } },
      times: 1,
    });
    const { body } = await h.gql('{ project(projectId: "1") { name } }');
    expect(h.upstreamCalls()).toHaveLength(1);
    return body.errors[0].extensions;
  };

  it.each([
    '99999999',
    ...httpDates(Date.now() + TEN_YEARS_MS),
  ])('Retry-After: %s waits at most MAX_RETRY_AFTER_MS', async (retryAfter) => {
    expect(await limitedBy(retryAfter)).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 120 });
  });

  it.each(
    httpDates(Date.now() + 100_000),
  )('Retry-After: %s (100 s ahead) waits 100 s', async (retryAfter) => {
    const extensions = await limitedBy(retryAfter);
    expect(extensions.code).toBe('RATE_LIMITED');
    expect(extensions.retryAfter).toBeGreaterThan(90);
    expect(extensions.retryAfter).toBeLessThanOrEqual(100);
  });
});
