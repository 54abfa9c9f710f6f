// The activity log scope PostHog records a change to each collection under, so that an entry of
// the log names what changed (the `ActivityScope` names of PostHog's
// posthog/models/activity_logging/activity_log.py).

export const ACTIVITY_SCOPES = {
  hog_functions: 'HogFunction',
  batch_exports: 'BatchExport',
  pipeline_destination_configs: 'PluginConfig',
} as const;

const COLLECTION_OF_SCOPE = new Map<string, string>(
  Object.entries(ACTIVITY_SCOPES).map(([collection, scope]) => [scope, collection]),
);

/** The collection an activity entry of `scope` is about; null when it is not one of them. */
export const collectionOfScope = (scope: string | null): string | null =>
  scope === null ? null : (COLLECTION_OF_SCOPE.get(scope) ?? null);
