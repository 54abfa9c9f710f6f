// Destination.health: one shape of health for every kind of destination (HogFunction,
// DestinationConfig, BatchExport each say what decides theirs), read from the record already answered
// (loaders/destination-health.ts says what decides it): no call of its own.
import {
  batchExportHealth,
  configHealth,
  type DestinationHealth,
  destinationHealth,
  type HEALTH_STATES,
  hogFunctionHealth,
} from '../loaders/destination-health.ts';
import type { DestinationRecord } from '../loaders/destinations.ts';
import { builder } from './builder.ts';
import { priced } from './cost/price.ts';
import { BatchExportRef, DestinationConfigRef, DestinationRef, HogFunctionRef } from './refs.ts';

export const DestinationHealthStateRef = builder.enumType('DestinationHealthState', {
  description: 'How a destination is doing, in one set of words for every kind of destination.',
  values: {
    HEALTHY: { description: 'It delivers as it should, as far as PostHog says.' },
    DEGRADED: { description: 'PostHog slowed it down (a hog function its hog watcher degraded).' },
    DISABLED: { description: 'It delivers nothing: paused by its owner, or disabled by PostHog.' },
    FAILING: { description: 'Its latest run failed (a batch export), or its plugin reports an error.' },
    UNKNOWN: { description: 'PostHog’s answer says nothing the gateway recognises (or nothing yet).' },
  } satisfies Record<(typeof HEALTH_STATES)[number], unknown>,
});

export const DestinationHealthRef =
  builder.objectRef<ReturnType<typeof destinationHealth>>('DestinationHealth');
DestinationHealthRef.implement({
  description: 'A destination’s health: its state, why, and since when.',
  fields: (t) => ({
    state: t.field({
      type: DestinationHealthStateRef,
      description: 'The state; UNKNOWN for anything the gateway does not recognise.',
      resolve: (h) => h.state,
    }),
    reason: t.exposeString('reason', { description: 'Why, in words for a person.' }),
    since: t.field({
      type: 'DateTime',
      nullable: true,
      description:
        'When the state began (ISO 8601): a batch export’s pause or the first run of its latest streak, a plugin error’s time; null when PostHog does not say (always for a hog function).',
      resolve: (h) => h.since,
    }),
  }),
});

const healthField = <T extends DestinationRecord>(description: string, read: (d: T) => DestinationHealth) =>
  ({
    type: DestinationHealthRef,
    description,
    extensions: priced({ calls: 0 }),
    resolve: (d: T) => read(d),
  }) as const;

builder.interfaceFields(DestinationRef, (t) => ({
  health: t.field(
    healthField(
      'How the destination is doing, in one shape for every kind (each kind says what decides it). Read from what its list already answered: no call of its own.',
      destinationHealth,
    ),
  ),
}));
builder.objectFields(HogFunctionRef, (t) => ({
  health: t.field(
    healthField(
      'How the function is doing: paused (DISABLED), else the state of PostHog’s hog watcher in `status` (healthy, degraded, disabled); UNKNOWN when PostHog could not say. No call of its own.',
      hogFunctionHealth,
    ),
  ),
}));
builder.objectFields(BatchExportRef, (t) => ({
  health: t.field(
    healthField(
      'How the export is doing: paused (DISABLED), else by its latest finished run of `latestRuns`: FAILING after Failed, FailedRetryable, FailedBilling, Terminated or TimedOut, HEALTHY after Completed or Cancelled, UNKNOWN before any. No call of its own.',
      batchExportHealth,
    ),
  ),
}));
builder.objectFields(DestinationConfigRef, (t) => ({
  health: t.field(
    healthField(
      'How the config is doing: not enabled (DISABLED), else FAILING while its `error` says one, else HEALTHY (PostHog answers nothing else about its deliveries). No call of its own.',
      configHealth,
    ),
  ),
}));
