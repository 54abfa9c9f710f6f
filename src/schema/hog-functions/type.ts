// HogFunction: a destination (or transformation, source, site app…) as PostHog keeps it since late
// 2024, its template and status, and its activity. Where it is read from: hog-function-lists.ts;
// its logs and metrics: hog-function-runs.ts; its template: hog-function-template.ts. A secret
// input reads {"secret": true} (normalize-hog-function.ts).

import { ACTIVITY_SCOPES } from '../../core/activity-scopes.ts';
import { mapMaybePromise } from '../../core/maybe-promise.ts';
import type { HogFunctionRecord } from '../../upstream/posthog/records.ts';
import { ActivityLogConnection, activityConnection } from '../activity/log.ts';
import { builder } from '../builder.ts';
import { priced } from '../cost/price.ts';
import { GLOBAL_ID, ITEM_ACTIVITY } from '../cost/rules.ts';
import { jsonField } from '../field-options.ts';
import { hogFunctionGlobalId } from '../global-id.ts';
import { projectRecord } from '../project.ts';
import {
  ActivityLogEntryRef,
  ActivityUserRef,
  DestinationRef,
  HogFunctionRef,
  HogFunctionTemplateRef,
  isRecordOf,
  ProjectRef,
} from '../refs.ts';
import { needsScopes } from '../scopes.ts';

/** The scope PostHog writes on entries about a hog function. */
export const HOG_FUNCTION_SCOPE = ACTIVITY_SCOPES.hog_functions;

const STATUS_NAMES: Record<number, string> = {
  0: 'unknown',
  1: 'healthy',
  2: 'degraded',
  3: 'disabled',
  11: 'forcefully_degraded',
  12: 'forcefully_disabled',
};

const HogFunctionStatusRef = builder.objectRef<NonNullable<HogFunctionRecord['status']>>('HogFunctionStatus');
HogFunctionStatusRef.implement({
  description: 'How the function runs: healthy, degraded or disabled (by the upstream).',
  fields: (t) => ({
    state: t.exposeInt('state', {
      description:
        '0 unknown, 1 healthy, 2 degraded, 3 disabled, 11 forcefully degraded, 12 forcefully disabled.',
    }),
    name: t.string({
      description:
        '`state` as a word: unknown, healthy, degraded, disabled, forcefully_degraded or forcefully_disabled.',
      resolve: (s) => STATUS_NAMES[s.state] ?? 'unknown',
    }),
    tokens: t.exposeFloat('tokens', {
      nullable: true,
      description:
        'The rate limiter’s tokens left: PostHog degrades a function that runs out (slow or failing runs); null when not sent.',
    }),
  }),
});

builder.objectType(HogFunctionRef, {
  description: 'A hog function: how PostHog keeps destinations, transformations, sources and site apps.',
  interfaces: [builder.nodeInterfaceRef(), DestinationRef],
  isTypeOf: isRecordOf('HogFunction'),
  fields: (t) => ({
    id: t.id({
      description:
        'The function’s global id, for `node`, `nodes` and the hog function mutations’ `id`. For a function read through "@current" it costs one GET /api/projects/@current/ a request (project:read).',
      extensions: priced(GLOBAL_ID),
      resolve: (fn, _args, ctx) =>
        mapMaybePromise(ctx.loaders.currentProject.numericId(fn.projectId), (id) =>
          hogFunctionGlobalId(id, fn.uuid),
        ),
    }),
    uuid: t.exposeString('uuid', {
      description:
        'The function’s UUID in PostHog (its URL id): Project.hogFunction’s `uuid`, and the `item_id` of its activity log entries.',
    }),
    project: t.field({
      type: ProjectRef,
      description:
        'The project the function belongs to, as it was reached (a number or "@current"); no call.',
      resolve: (fn) => projectRecord(fn.projectId),
    }),
    type: t.exposeString('type', {
      description:
        'destination, site_destination, internal_destination, source_webhook, site_app, transformation, transformation_log, legacy_destination, or one PostHog adds later; typed: `typeValue`.',
    }),
    name: t.exposeString('name', {
      nullable: true,
      description: 'The function’s name as PostHog’s UI lists it; null when none was given.',
    }),
    description: t.exposeString('description', {
      nullable: true,
      description:
        'Free text about what the function does; often the template’s description. Null or empty when none.',
    }),
    enabled: t.exposeBoolean('enabled', {
      description:
        'Whether PostHog runs the function on events now; updateHogFunction’s `enabled` pauses it.',
    }),
    createdAt: t.expose('createdAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the function was created (ISO 8601); null when not sent.',
    }),
    updatedAt: t.expose('updatedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the function was last changed (ISO 8601); null when not sent.',
    }),
    createdBy: t.expose('createdBy', {
      type: ActivityUserRef,
      nullable: true,
      description: 'The user who created the function; null when PostHog made it or does not say.',
    }),
  }),
});

// What it runs and how: its code, inputs, filters, template and state.
builder.objectFields(HogFunctionRef, (t) => ({
  hog: t.exposeString('hog', {
    nullable: true,
    description: 'The source the function runs: Hog, or JavaScript for the site_* types; null when not sent.',
  }),
  inputsSchema: t.field(
    jsonField(
      'The inputs the function declares: [{key, type, label, required, secret, …}]; `inputs` holds their values.',
      (fn) => fn.inputsSchema,
    ),
  ),
  inputs: t.field(
    jsonField(
      'The values of the declared inputs, as {key: {value, …}}; a secret one reads {"secret": true}, never its value.',
      (fn) => fn.inputs,
    ),
  ),
  filters: t.field(
    jsonField(
      'Which events the function runs on, as PostHog stores them: {events, actions, properties, filter_test_accounts, …}.',
      (fn) => fn.filters,
    ),
  ),
  masking: t.field(
    jsonField(
      'How the function skips repeated events: {ttl, hash, threshold}; null when it runs on every event.',
      (fn) => fn.masking,
    ),
  ),
  mappings: t.field(
    jsonField(
      'For a destination sending several kinds of event: [{name, filters, inputs, inputs_schema}], secret inputs reading {"secret": true}; null when it has none.',
      (fn) => fn.mappings,
    ),
  ),
  iconUrl: t.exposeString('iconUrl', {
    nullable: true,
    description: 'A URL of the function’s icon (usually its template’s), to show beside its name.',
  }),
  template: t.expose('template', {
    type: HogFunctionTemplateRef,
    nullable: true,
    description:
      'The template it was made from, as PostHog nests it in the function; null for one written from code.',
  }),
  status: t.expose('status', {
    type: HogFunctionStatusRef,
    nullable: true,
    description:
      'Whether PostHog runs the function healthily or has degraded or disabled it; null when not sent.',
  }),
  executionOrder: t.exposeInt('executionOrder', {
    nullable: true,
    description:
      'A transformation’s place in the order transformations run (lowest first); null for other types. rearrangeHogFunctions sets it.',
  }),
  version: t.exposeInt('version', {
    nullable: true,
    description:
      'Bumped by PostHog on each change to the code, inputs, filters, mappings or masking; null when not sent.',
  }),
}));

// Its activity: the log's entries about it.
builder.objectFields(HogFunctionRef, (t) => ({
  activity: t.connection(
    {
      type: ActivityLogEntryRef,
      nullable: true,
      description: needsScopes(
        'The activity log entries about this function, newest first (GET …/activity_log/ with scope HogFunction, item_id = its uuid).',
        'activity_log:read',
      ),
      extensions: priced(ITEM_ACTIVITY),
      resolve: (fn, args, ctx) =>
        activityConnection(ctx, fn.projectId, { scope: HOG_FUNCTION_SCOPE, itemId: fn.uuid }, args),
    },
    ActivityLogConnection,
  ),
}));
