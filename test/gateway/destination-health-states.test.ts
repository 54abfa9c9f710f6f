// What decides a destination's health (loaders/destination-health.ts), state by state, on records
// as the normalisers make them from PostHog's answers: the hog watcher's states (forced ones
// too, and the older watcher's 4), UNKNOWN for what is not known, a batch export's streak and its
// `since`, a config's error as text or object.
import { describe, expect, it } from 'vitest';
import { batchExportHealth, configHealth, hogFunctionHealth } from '../../src/loaders/destination-health.ts';
import { normalizeBatchExport } from '../../src/upstream/posthog/batch-exports.ts';
import { normalizeHogFunction } from '../../src/upstream/posthog/hog-functions.ts';
import type { ConfigRecord } from '../../src/upstream/posthog/records.ts';

const fn = (enabled: boolean, status: unknown) =>
  normalizeHogFunction({ id: 'a', type: 'destination', enabled, status }, '1');
const run = (id: number, status: string, finished: string | null) => ({
  id: `00000000-0000-0000-0000-00000000000${id}`,
  status,
  finished_at: finished,
  latest_error: status === 'Failed' ? 'boom' : null,
});
const exportOf = (paused: boolean, runs: unknown[]) =>
  normalizeBatchExport({ id: 'e', paused, last_paused_at: '2026-12-01T00:00:00Z', latest_runs: runs }, '1');

describe('a hog function’s health', () => {
  it.each([
    [1, 'HEALTHY'],
    [2, 'DEGRADED'],
    [3, 'DISABLED'],
    [4, 'DISABLED'],
    [11, 'DEGRADED'],
    [12, 'DISABLED'],
    [0, 'UNKNOWN'],
    [7, 'UNKNOWN'],
  ])('state %i is %s while enabled', (state, expected) => {
    expect(hogFunctionHealth(fn(true, { state, tokens: 0 }))).toMatchObject({ state: expected, since: null });
  });

  it('is DISABLED while paused, whatever the status; UNKNOWN without one', () => {
    expect(hogFunctionHealth(fn(false, { state: 0, tokens: 0 })).state).toBe('DISABLED');
    expect(hogFunctionHealth(fn(true, null))).toMatchObject({
      state: 'UNKNOWN',
      reason: expect.stringMatching(/no status/),
    });
  });
});

describe('a batch export’s health', () => {
  it('is FAILING since the first failed run of the newest streak, skipping runs not finished', () => {
    const health = batchExportHealth(
      exportOf(false, [
        run(1, 'Running', null),
        run(2, 'Failed', '2026-12-03T00:00:00Z'),
        run(3, 'TimedOut', '2026-12-02T00:00:00Z'),
        run(4, 'Completed', '2026-12-01T00:00:00Z'),
      ]),
    );
    expect(health).toEqual({
      state: 'FAILING',
      reason: 'Its latest run Failed: boom',
      since: '2026-12-02T00:00:00Z',
    });
  });

  it('does not say since when the streak runs past the runs PostHog embeds', () => {
    expect(batchExportHealth(exportOf(false, [run(1, 'Completed', '2026-12-03T00:00:00Z')]))).toEqual({
      state: 'HEALTHY',
      reason: 'Its latest run Completed.',
      since: null,
    });
  });

  it('is DISABLED since its pause, and UNKNOWN before any run has finished', () => {
    expect(batchExportHealth(exportOf(true, []))).toMatchObject({
      state: 'DISABLED',
      since: '2026-12-01T00:00:00Z',
    });
    expect(batchExportHealth(exportOf(false, [run(1, 'Starting', null)])).state).toBe('UNKNOWN');
  });
});

describe('a plugin config’s health', () => {
  const config = (enabled: boolean, error: unknown) => ({ enabled, error }) as ConfigRecord;
  it('reads its error as text or as {message, time}; "" and null are none', () => {
    expect(configHealth(config(true, 'ETIMEDOUT'))).toEqual({
      state: 'FAILING',
      reason: 'The plugin reports: ETIMEDOUT',
      since: null,
    });
    expect(configHealth(config(true, { message: 'bad key', time: '2026-12-01T00:00:00Z' })).since).toBe(
      '2026-12-01T00:00:00Z',
    );
    expect(configHealth(config(true, '')).state).toBe('HEALTHY');
    expect(configHealth(config(true, null)).state).toBe('HEALTHY');
    expect(configHealth(config(false, 'ETIMEDOUT')).state).toBe('DISABLED');
  });
});
