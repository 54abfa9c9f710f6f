// A hog function's logs (posthog/api/log_entries.py@1661033) and metrics
// (posthog/api/app_metrics2.py@19194ef) in the 2026 dialect: `limit` read twice (the fetch and the
// page), DRF's field errors, labels per interval, one series per breakdown, totals over -7d.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceUpstream, startReferenceUpstream } from '../src/server.ts';
import { pathOf, rest } from './rest.ts';

const FUNCTIONS = '/api/projects/1/hog_functions/';

describe('hog function logs and metrics, posthog-2026 dialect', () => {
  let upstream: ReferenceUpstream;
  let base: string;
  beforeAll(async () => {
    upstream = await startReferenceUpstream({ dialect: 'posthog-2026' });
    const fn = [...upstream.store.hogFunctions.values()].find((f) => f.name === 'Webhook to ops')!;
    base = `${FUNCTIONS}${fn.id}`;
  });
  afterAll(() => upstream.close());

  it('fetches `limit` rows newest first and pages only those: count is what was fetched, no next', async () => {
    const all = await rest(upstream, 'GET', `${base}/logs/`);
    expect([all.body.count, all.body.results.length, all.body.next, all.body.previous]).toEqual([
      12,
      12,
      null,
      null,
    ]);
    expect(Object.keys(all.body.results[0])).toEqual([
      'log_source_id',
      'instance_id',
      'timestamp',
      'level',
      'message',
    ]);
    const times = all.body.results.map((l: { timestamp: string }) => Date.parse(l.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const five = await rest(upstream, 'GET', `${base}/logs/?limit=5`);
    expect([five.body.count, five.body.results.length, five.body.next]).toEqual([5, 5, null]);
    const offset = await rest(upstream, 'GET', `${base}/logs/?limit=5&offset=3`);
    expect(offset.body.results).toEqual(five.body.results.slice(3));
    expect(pathOf(offset.body.previous)).toBe(`${base}/logs/?limit=5`);
    const older = await rest(
      upstream,
      'GET',
      `${base}/logs/?before=${encodeURIComponent(five.body.results[4].timestamp)}`,
    );
    expect(older.body.count).toBe(7);
    const errors = await rest(upstream, 'GET', `${base}/logs/?level=error,warn`);
    expect(new Set(errors.body.results.map((l: { level: string }) => l.level))).toEqual(
      new Set(['ERROR', 'WARN']),
    );
  });

  it('refuses a limit outside 1..500 and a bad date-time with the serializer field errors', async () => {
    const cases: [string, string, string, string][] = [
      ['limit=501', 'limit', 'max_value', 'Ensure this value is less than or equal to 500.'],
      ['limit=0', 'limit', 'min_value', 'Ensure this value is greater than or equal to 1.'],
      ['limit=x', 'limit', 'invalid_input', 'A valid integer is required.'],
      [
        'after=yesterday',
        'after',
        'invalid_input',
        'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
      ],
    ];
    for (const [query, attr, code, detail] of cases) {
      const answer = await rest(upstream, 'GET', `${base}/logs/?${query}`);
      expect([query, answer.status, answer.body.attr, answer.body.code, answer.body.detail]).toEqual([
        query,
        400,
        attr,
        code,
        detail,
      ]);
    }
  });

  it('has no logs for a legacy_destination (the legacy consumer discards them)', async () => {
    const legacy = [...upstream.store.hogFunctions.values()].find((f) => f.type === 'legacy_destination')!;
    const answer = await rest(upstream, 'GET', `${FUNCTIONS}${legacy.id}/logs/`);
    expect([answer.status, answer.body.count]).toEqual([200, 0]);
  });

  it('labels days as %Y-%m-%d and hours as %Y-%m-%dT%H:%M, one series per breakdown (kind by default)', async () => {
    const days = await rest(upstream, 'GET', `${base}/metrics/?after=-7d&interval=day`);
    expect(days.body.labels).toHaveLength(8);
    expect(days.body.labels[0]).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(days.body.series.map((s: { name: string }) => s.name).sort()).toEqual([
      'failure',
      'other',
      'success',
    ]);
    const hours = await rest(upstream, 'GET', `${base}/metrics/?after=-24h&interval=hour&breakdown_by=name`);
    expect(hours.body.labels).toHaveLength(25);
    expect(hours.body.labels[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
    expect(hours.body.series.map((s: { name: string }) => s.name).sort()).toEqual([
      'failed',
      'filtered',
      'succeeded',
    ]);
    const weeks = await rest(upstream, 'GET', `${base}/metrics/?after=-30d&interval=week`);
    // Weeks start on Mondays.
    expect(weeks.body.labels.map((l: string) => new Date(`${l}T00:00:00Z`).getUTCDay())).toEqual(
      weeks.body.labels.map(() => 1),
    );
    const bad = await rest(upstream, 'GET', `${base}/metrics/?interval=month`);
    expect([bad.status, bad.body.attr, bad.body.code, bad.body.detail]).toEqual([
      400,
      'interval',
      'invalid_choice',
      '"month" is not a valid choice.',
    ]);
  });

  it('totals the last 7 days by default, per kind, or per name', async () => {
    const days = await rest(upstream, 'GET', `${base}/metrics/?breakdown_by=name`);
    const totals = await rest(upstream, 'GET', `${base}/metrics/totals/?breakdown_by=name`);
    for (const series of days.body.series as { name: string; values: number[] }[])
      expect([series.name, totals.body.totals[series.name]]).toEqual([
        series.name,
        series.values.reduce((a, b) => a + b, 0),
      ]);
    const byKind = await rest(upstream, 'GET', `${base}/metrics/totals/`);
    expect(Object.keys(byKind.body.totals).sort()).toEqual(['failure', 'other', 'success']);
  });
});
