// DestinationConfig, its frontend and connection, and the Project fields that reach it. Its
// mutations are in destination-config-mutations.ts.
import type { GatewayContext } from '../../context.ts';
import { validateConfigId } from '../../core/ids.ts';
import { mapMaybePromise } from '../../core/maybe-promise.ts';
import { isNotFound } from '../../errors/codes.ts';
import type { ConfigRecord } from '../../upstream/posthog/records.ts';
import { ActivityLogConnection, activityConnection, CONFIG_SCOPE } from '../activity/log.ts';
import { builder } from '../builder.ts';
import { offsetConnection } from '../connections/offset.ts';
import { priced } from '../cost/price.ts';
import { GLOBAL_ID, ITEM_ACTIVITY, OFFSET_LIST } from '../cost/rules.ts';
import { configGlobalId } from '../global-id.ts';
import { projectRecord } from '../project.ts';
import {
  ActivityLogEntryRef,
  DestinationConfigRef,
  DestinationFrontendRef,
  DestinationRef,
  isRecordOf,
  ProjectRef,
} from '../refs.ts';
import { needsScopes } from '../scopes.ts';

const keyOf = (config: ConfigRecord) => ({ projectId: config.projectId, id: config.databaseId });

/** The name the cursors of a project's config list carry: the numeric project id (see CurrentProject.cursorId). */
const configsList = (ctx: GatewayContext, projectId: string) => () =>
  mapMaybePromise(ctx.loaders.currentProject.cursorId(projectId), (id) => `configs:${id}`);

builder.objectType(DestinationConfigRef, {
  description:
    'A legacy plugin config (PostHog’s pipeline_destination_configs): a plugin, its settings and its place in the project’s pipeline. PostHog keeps new destinations as hog functions; these remain readable and updatable.',
  interfaces: [builder.nodeInterfaceRef(), DestinationRef],
  isTypeOf: isRecordOf('DestinationConfig'),
  fields: (t) => ({
    // One id whatever path reached the config: `@current` is resolved to the numeric project id.
    id: t.id({
      description:
        'The config’s global id, for `node`, `nodes` and the config mutations’ `id`. For a config read through "@current" whose team PostHog left out, it costs one GET /api/projects/@current/ (project:read).',
      extensions: priced(GLOBAL_ID),
      resolve: (config, _args, ctx) =>
        mapMaybePromise(ctx.loaders.currentProject.numericId(config.projectId), (id) =>
          configGlobalId(id, config.databaseId),
        ),
    }),
    databaseId: t.exposeInt('databaseId', {
      description:
        'The config’s integer id in PostHog: Project.destinationConfig’s `databaseId`, and the `item_id` of its activity log entries.',
    }),
    project: t.field({
      type: ProjectRef,
      description:
        'The project the config belongs to, as the config was reached (a number or "@current"); no call.',
      resolve: (config) => projectRecord(config.projectId),
    }),
    plugin: t.exposeInt('plugin', {
      description: 'The integer id of the installed plugin this config runs; `pluginInfo` describes it.',
    }),
    enabled: t.exposeBoolean('enabled', {
      description: 'Whether the plugin receives events now; updateDestinationConfig’s `enabled` pauses it.',
    }),
    order: t.exposeInt('order', {
      description:
        'The config’s position in the pipeline, lowest first (PostHog lists by order, then plugin).',
    }),
    name: t.exposeString('name', {
      nullable: true,
      description: 'The config’s name; null when none was given (PostHog then shows the plugin’s).',
    }),
    description: t.exposeString('description', {
      nullable: true,
      description: 'Free text about what this config is for; null or empty when none was given.',
    }),
    deleted: t.exposeBoolean('deleted', {
      description:
        'Whether the config is soft-deleted: PostHog keeps it, and updateDestinationConfig may restore it.',
    }),
  }),
});

// What it sends and how: its filters, config, error, plugin and timestamps.
builder.objectFields(DestinationConfigRef, (t) => ({
  filters: t.expose('filters', {
    type: 'JSON',
    nullable: true,
    description:
      'Which events reach the plugin, as the upstream stores them ({events: [...], actions: [...], …}); null when not sent (PostHog no longer sends it, 2026).',
  }),
  config: t.expose('config', {
    type: 'JSON',
    nullable: true,
    description:
      'The plugin’s settings for this config: an object from PostHog (each secret reads as its mask, "**************** POSTHOG SECRET FIELD ****************"), or a string as the interface document types it.',
  }),
  error: t.expose('error', {
    type: 'JSON',
    nullable: true,
    description:
      'The plugin’s last error as PostHog reports it ({message, time, …}); null when it reports none.',
  }),
  teamId: t.exposeInt('teamId', {
    nullable: true,
    description: 'PostHog’s team id for the config’s project: the project’s integer id. Null when not sent.',
  }),
  pluginInfo: t.field({
    type: 'JSON',
    nullable: true,
    description: needsScopes(
      'The plugin’s own record: {id, name, url, description, icon, …}. Lists leave it out upstream; it is then read from the config itself (GET …/pipeline_destination_configs/:id/, one call per config).',
      'plugin:read',
    ),
    extensions: priced({ calls: 1 }),
    resolve: (config, _args, ctx) => ctx.loaders.configs.fieldOf(config, 'pluginInfo'),
  }),
  deliveryRate24h: t.float({
    nullable: true,
    description: needsScopes(
      'The share of events delivered in the last 24 hours, from 0 to 1; null when PostHog has no figure. Lists carry it; a mutation’s answer does not, and then it is read from the config itself (one call).',
      'plugin:read',
    ),
    // Lists and retrieves carry it; a write's answer may not.
    extensions: priced({ calls: ({ walk }) => (walk.isMutation ? 1 : 0), worst: 1 }),
    resolve: (config, _args, ctx) => ctx.loaders.configs.fieldOf(config, 'deliveryRate24h'),
  }),
  createdAt: t.expose('createdAt', {
    type: 'DateTime',
    nullable: true,
    description: 'When the config was created (ISO 8601); null when the upstream leaves it out.',
  }),
  updatedAt: t.expose('updatedAt', {
    type: 'DateTime',
    nullable: true,
    description: 'When the config was last changed (ISO 8601); null when the upstream leaves it out.',
  }),
}));

// What reaches beyond the config's own record: its plugin's frontend and its activity.
builder.objectFields(DestinationConfigRef, (t) => ({
  frontend: t.field({
    type: DestinationFrontendRef,
    nullable: true,
    description: needsScopes(
      'The plugin’s frontend code for this config (GET …/pipeline_destination_configs/:id/frontend/).',
      'plugin:read',
    ),
    deprecationReason: `PostHog no longer serves plugin frontends to API keys (2026). Against today’s PostHog it answers UPSTREAM_UNSUPPORTED.`,
    extensions: priced({ calls: 1 }),
    resolve: (config, _args, ctx) => ctx.loaders.configs.frontend(keyOf(config)),
  }),
  activity: t.connection(
    {
      type: ActivityLogEntryRef,
      nullable: true,
      description: needsScopes(
        'The activity log entries about this config, newest first (GET …/activity_log/ with scope PluginConfig, item_id = its databaseId).',
        'activity_log:read',
      ),
      extensions: priced(ITEM_ACTIVITY),
      resolve: (config, args, ctx) =>
        activityConnection(
          ctx,
          config.projectId,
          { scope: CONFIG_SCOPE, itemId: String(config.databaseId) },
          args,
        ),
    },
    ActivityLogConnection,
  ),
}));

builder.objectType(DestinationFrontendRef, {
  description: 'What the upstream serves as a config’s frontend.',
  fields: (t) => ({
    contentType: t.exposeString('contentType', {
      description:
        'The Content-Type the frontend was served with, e.g. application/javascript or application/json.',
    }),
    config: t.expose('config', {
      type: DestinationConfigRef,
      nullable: true,
      description:
        'The config, when the upstream answers the frontend route with a config object (as the interface document says); null otherwise.',
    }),
    source: t.exposeString('source', {
      nullable: true,
      description:
        'The frontend’s JavaScript source, when the upstream answers with code (as PostHog does); null otherwise.',
    }),
  }),
});

const DestinationConfigConnection = builder.connectionObject(
  {
    type: DestinationConfigRef,
    name: 'DestinationConfigConnection',
    description: 'Destination configs in the upstream’s order, as a Relay connection.',
    edgesField: {
      description: 'This page’s destination configs, by order then plugin, each with its cursor.',
    },
    fields: (t) => ({
      totalCount: t.int({
        description: 'How many configs the project has in all: PostHog’s `count` for the list.',
        resolve: (c) => c.totalCount ?? 0,
      }),
    }),
  },
  {
    name: 'DestinationConfigEdge',
    description: 'A destination config and its cursor.',
    nodeField: {
      description: 'A destination config as the list page answered it (pluginInfo is read on demand).',
    },
  },
);

builder.objectFields(ProjectRef, (t) => ({
  destinationConfigs: t.connection(
    {
      type: DestinationConfigRef,
      nullable: true,
      description: needsScopes(
        'The project’s legacy plugin configs in PostHog’s order (GET …/pipeline_destination_configs/): first/after and last/before over its limit/offset list. Against a PostHog that retired the route it answers UPSTREAM_UNSUPPORTED. Paged by offset, as PostHog pages it: an item created or deleted between two pages shifts the rest by one, so the next page may repeat or skip an item; reading again from the start is exact.',
        'plugin:read',
      ),
      extensions: priced(OFFSET_LIST),
      resolve: (project, args, ctx) =>
        offsetConnection(configsList(ctx, project.projectId), args, (limit, offset) =>
          ctx.loaders.configs.page({ projectId: project.projectId, limit, offset }),
        ),
    },
    DestinationConfigConnection,
  ),
  destinationConfig: t.field({
    type: DestinationConfigRef,
    nullable: true,
    description: needsScopes(
      'One legacy plugin config by its integer id (GET …/pipeline_destination_configs/:id/); null when PostHog answers 404.',
      'plugin:read',
    ),
    args: { databaseId: t.arg.int({ required: true, description: 'The config’s integer id.' }) },
    extensions: priced({ calls: 1 }),
    resolve: async (project, args, ctx) => {
      const id = validateConfigId(args.databaseId);
      try {
        return await ctx.loaders.configs.load({ projectId: project.projectId, id });
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  }),
}));
