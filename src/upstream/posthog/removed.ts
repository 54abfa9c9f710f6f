// Operations PostHog no longer offers, recognised from its answer and never from a setting:
// Django's own 404 "Endpoint not found." (no such route any more), the 2026 refusal of an action
// to every personal API key, and the refusal to create a plugin config. The error says what
// PostHog offers instead (docs/upstream.md).
import { routeTemplate } from './paths.ts';

/** PostHog's answers that mean "this operation is gone", whatever the key. */
export function isRemovedAnswer(status: number, detail: string | null): boolean {
  if (detail === null) return false;
  if (status === 404) return detail === 'Endpoint not found.';
  // Lower case since 2026; the mid-2024 "Personal API Key" wording refused scoped keys only.
  if (status === 403) return detail === 'This action does not support personal API key access';
  return status === 400 && detail.startsWith('Plugin creation is no longer possible');
}

const HOG_FUNCTIONS = 'destinations are hog functions now (/api/projects/:project_id/hog_functions/)';
const CONFIGS = '/api/projects/:project_id/pipeline_destination_configs/';

/** What PostHog offers instead, by the operation's method and route. */
const INSTEAD: Record<string, string> = {
  'GET /api/projects/:project_id/activity_log/important_changes/':
    'PostHog no longer offers important changes to API keys: read the project’s activity log (activityLog) instead.',
  'POST /api/projects/:project_id/activity_log/bookmark_activity_notification/':
    'PostHog no longer offers notification bookmarks to API keys: the activity log has no read state for a key.',
  [`POST ${CONFIGS}:id/job/`]: `PostHog no longer runs plugin jobs: ${HOG_FUNCTIONS}, and a test invocation runs one.`,
  [`GET ${CONFIGS}:id/frontend/`]: `PostHog no longer serves plugin frontends to API keys: ${HOG_FUNCTIONS}.`,
  [`PATCH ${CONFIGS}rearrange/`]: `PostHog no longer rearranges plugin configs: ${HOG_FUNCTIONS}, and transformations are ordered with hog_functions/rearrange/.`,
  [`POST ${CONFIGS}`]: `PostHog no longer creates plugin configs: create a hog function instead; ${HOG_FUNCTIONS}.`,
};

/** The message of an UPSTREAM_UNSUPPORTED error for a call PostHog no longer serves. */
export function insteadOf(call: { method: string; path: string }): string {
  const route = routeTemplate(call.path);
  const advice = INSTEAD[`${call.method} ${route}`];
  if (advice) return advice;
  if (route.startsWith(CONFIGS)) return `PostHog no longer serves plugin configs: ${HOG_FUNCTIONS}.`;
  if (route.startsWith('/api/projects/:project_id/hog_functions/'))
    return 'This upstream does not serve hog functions (they came with PostHog’s CDP, late 2024): its destinations are plugin configs (destinationConfigs).';
  return 'The upstream no longer offers this operation.';
}
