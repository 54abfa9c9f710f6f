// A destination's health in one shape, whichever kind it is, read from the record its list or
// retrieve already answered (no call of its own):
// - a hog function: `status.state` as PostHog answers it, HogFunctionState
//   (products/cdp/backend/models/hog_functions/hog_function.py@026f251: UNKNOWN 0, HEALTHY 1,
//   DEGRADED 2, DISABLED 3, FORCEFULLY_DEGRADED 11, FORCEFULLY_DISABLED 12; a function that is not
//   enabled answers {state: 0}), set by the hog watcher
//   (nodejs/src/cdp/services/monitoring/hog-watcher.service.ts@c56661c: it degrades a function
//   that runs out of tokens and disables one below zero; 11 and 12 are set by hand). The older
//   watcher's DISABLED_PERMANENTLY (4) reads as disabled too. PostHog says not since when;
// - a batch export: paused is DISABLED (since last_paused_at); else its latest finished run of
//   `latest_runs` (the 10 newest, BatchExport.latest_runs) decides: one of the failed statuses of
//   BatchExportRun.Status (posthog/batch_exports/models.py@0512fff: Failed, FailedRetryable,
//   FailedBilling, Terminated, TimedOut) is FAILING, Completed or Cancelled is HEALTHY, none
//   finished is UNKNOWN;
// - a legacy plugin config: not enabled is DISABLED; else FAILING while the answer holds an
//   `error` (where "all install and config errors are", posthog/models/plugin.py@e85aa34; PostHog
//   2026's serializer answers null, the spec's answers text), else HEALTHY: nothing else in the
//   answer speaks of a config's deliveries.
import type {
  BatchExportRecord,
  BatchExportRunRecord,
  ConfigRecord,
  HogFunctionRecord,
} from '../upstream/posthog/records.ts';

export const HEALTH_STATES = ['HEALTHY', 'DEGRADED', 'DISABLED', 'FAILING', 'UNKNOWN'] as const;
export type HealthState = (typeof HEALTH_STATES)[number];

export interface DestinationHealth {
  state: HealthState;
  reason: string;
  /** When the state began (ISO 8601); null when the upstream does not say. */
  since: string | null;
}

const HOG_STATES: Record<number, { state: HealthState; reason: string }> = {
  1: { state: 'HEALTHY', reason: 'PostHog runs the function normally.' },
  2: { state: 'DEGRADED', reason: 'PostHog’s hog watcher degraded the function: its runs cost too much.' },
  3: { state: 'DISABLED', reason: 'PostHog’s hog watcher disabled the function.' },
  4: { state: 'DISABLED', reason: 'PostHog’s hog watcher disabled the function indefinitely.' },
  11: { state: 'DEGRADED', reason: 'PostHog degraded the function by hand.' },
  12: { state: 'DISABLED', reason: 'PostHog disabled the function by hand.' },
};

export function hogFunctionHealth(fn: HogFunctionRecord): DestinationHealth {
  if (!fn.enabled) return { state: 'DISABLED', reason: 'The function is paused.', since: null };
  const known = fn.status ? HOG_STATES[fn.status.state] : undefined;
  if (known) return { ...known, since: null };
  const told = fn.status ? `state ${fn.status.state}` : 'no status';
  return { state: 'UNKNOWN', reason: `PostHog answered ${told} for the function.`, since: null };
}

export const FAILED_RUN_STATUSES = ['Failed', 'FailedRetryable', 'FailedBilling', 'Terminated', 'TimedOut'];
const GOOD_RUN_STATUSES = ['Completed', 'Cancelled'];
const finished = (run: BatchExportRunRecord) =>
  FAILED_RUN_STATUSES.includes(run.status) || GOOD_RUN_STATUSES.includes(run.status);
const failed = (run: BatchExportRunRecord) => FAILED_RUN_STATUSES.includes(run.status);

export function batchExportHealth(e: BatchExportRecord): DestinationHealth {
  if (e.paused) return { state: 'DISABLED', reason: 'The export is paused.', since: e.lastPausedAt };
  const runs = e.latestRuns.filter(finished);
  const latest = runs[0];
  if (!latest) return { state: 'UNKNOWN', reason: 'No run of the export has finished yet.', since: null };
  // The state began with the oldest run of the newest streak, when an older run of another
  // state shows where it began.
  const streak = runs.findIndex((run) => failed(run) !== failed(latest));
  const since = streak > 0 ? (runs[streak - 1]?.finishedAt ?? null) : null;
  if (failed(latest))
    return {
      state: 'FAILING',
      reason: `Its latest run ${latest.status}${latest.latestError ? `: ${latest.latestError}` : '.'}`,
      since,
    };
  return { state: 'HEALTHY', reason: `Its latest run ${latest.status}.`, since };
}

/** The config's `error`: text (the spec's; "" for none) or an object with `message` and `time`. */
const errorOf = (error: unknown): { message: string; time: string | null } | null => {
  if (error === null || error === undefined || error === '') return null;
  if (typeof error !== 'object') return { message: String(error), time: null };
  const e = error as Record<string, unknown>;
  const message = typeof e.message === 'string' ? e.message : JSON.stringify(error);
  return { message, time: typeof e.time === 'string' ? e.time : null };
};

export function configHealth(config: ConfigRecord): DestinationHealth {
  if (!config.enabled) return { state: 'DISABLED', reason: 'The config is disabled.', since: null };
  const error = errorOf(config.error);
  if (error) return { state: 'FAILING', reason: `The plugin reports: ${error.message}`, since: error.time };
  return { state: 'HEALTHY', reason: 'The config is enabled and its plugin reports no error.', since: null };
}

export function destinationHealth(
  d: HogFunctionRecord | BatchExportRecord | ConfigRecord,
): DestinationHealth {
  if (d.__typename === 'HogFunction') return hogFunctionHealth(d);
  if (d.__typename === 'BatchExport') return batchExportHealth(d);
  return configHealth(d);
}
