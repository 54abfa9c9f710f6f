// How the 2026 dialect reads a hog function's metrics `after`/`before`: as PostHog's
// AppMetricsMixin does (posthog/api/app_metrics2.py@19194ef), through
// relative_date_parse_with_delta_mapping (posthog/utils.py): an ISO date, else a relative
// `-<n><h|d|w|m|q|y|M|s>`, else now; never "Invalid date.". The CharField refuses a blank value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { rest } from './rest.ts';

const FUNCTIONS = '/api/projects/1/hog_functions/';

describe('hog function metric dates, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  let base: string;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
    const fn = [...upstream.store.hogFunctions.values()].find((f) => f.name === 'Webhook to ops')!;
    base = `${FUNCTIONS}${fn.id}`;
  });
  afterAll(() => upstream.close());

  // The seeded world's now is 2026-11-25T00:00:00Z.
  it.each([
    ['-1m', '2026-10-25'],
    ['-1y', '2025-11-25'],
    ['-2q', '2026-05-27'],
    ['-1mStart', '2026-10-01'],
    ['-90M', '2026-11-24'],
    ['-3600s', '2026-11-24'],
    ['2026-11-20', '2026-11-20'],
  ])('reads after=%s from the first label %s', async (after, first) => {
    const answer = await rest(upstream, 'GET', `${base}/metrics/?after=${after}`);
    expect([answer.status, answer.body.labels[0]]).toEqual([200, first]);
  });

  it('reads unreadable text as now, in metrics and in totals', async () => {
    const metrics = await rest(upstream, 'GET', `${base}/metrics/?after=later`);
    expect([metrics.status, metrics.body.labels]).toEqual([200, ['2026-11-25']]);
    const totals = await rest(upstream, 'GET', `${base}/metrics/totals/?after=later`);
    expect([totals.status, totals.body.totals]).toEqual([200, {}]);
    const before = await rest(upstream, 'GET', `${base}/metrics/totals/?after=-1y&before=later`);
    const year = await rest(upstream, 'GET', `${base}/metrics/totals/?after=-1y`);
    expect(before.body.totals).toEqual(year.body.totals);
  });

  it('counts more over a year than over the default 7 days', async () => {
    const week = await rest(upstream, 'GET', `${base}/metrics/totals/`);
    const year = await rest(upstream, 'GET', `${base}/metrics/totals/?after=-1y`);
    expect(year.body.totals.success).toBeGreaterThan(week.body.totals.success);
  });

  it('refuses a blank `after` as the CharField does', async () => {
    const blank = await rest(upstream, 'GET', `${base}/metrics/totals/?after=`);
    expect([blank.status, blank.body.attr, blank.body.code, blank.body.detail]).toEqual([
      400,
      'after',
      'blank',
      'This field may not be blank.',
    ]);
  });
});
