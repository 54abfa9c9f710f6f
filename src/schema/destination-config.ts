// DestinationConfig, its frontend and connection, and the Project fields that reach it. Its
// mutations are in destination-config-mutations.ts.
import type { GatewayContext } from '../context.ts';
import { isNotFound } from '../errors/codes.ts';
import { validateConfigId } from '../ids.ts';
import { mapMaybePromise } from '../maybe-promise.ts';
import type { ConfigRecord } from '../upstream/records.ts';
import { ActivityLogConnection, activityConnection, CONFIG_SCOPE } from './activity-log.ts';
import { builder } from './builder.ts';
import { offsetConnection } from './connections/offset.ts';
import { configGlobalId } from './global-id.ts';
import { projectRecord } from './project.ts';
import {
  ActivityLogEntryRef,
  DestinationConfigRef,
  DestinationFrontendRef,
  DestinationRef,
  isRecordOf,
  ProjectRef,
} from './refs.ts';

const keyOf = (config: ConfigRecord) => ({ projectId: config.projectId, id: config.databaseId });

/** The name the cursors of a project's config list carry: the numeric project id (see CurrentProject.cursorId). */
const configsList = (ctx: GatewayContext, projectId: string) => () =>
  mapMaybePromise(ctx.loaders.currentProject.cursorId(projectId), (id) => `configs:${id}`);

builder.objectType(DestinationConfigRef, {
  description:
    'A pipeline destination config: a plugin, its settings and its place in the project’s pipeline.',
  interfaces: [builder.nodeInterfaceRef(), DestinationRef],
  isTypeOf: isRecordOf('DestinationConfig'),
  fields: (t) => ({
    // One id whatever path reached the config: `@current` is resolved to the numeric project id.
    id: t.id({
      description: 'The global id: opaque, stable, accepted by `node` and `nodes`.',
      resolve: (config, _args, ctx) =>
        mapMaybePromise(ctx.loaders.currentProject.numericId(config.projectId), (id) =>
          configGlobalId(id, config.databaseId),
        ),
    }),
    databaseId: t.exposeInt('databaseId', { description: 'The config’s integer id upstream.' }),
    project: t.field({
      type: ProjectRef,
      description: 'The project the config belongs to.',
      resolve: (config) => projectRecord(config.projectId),
    }),
    plugin: t.exposeInt('plugin', { description: 'The id of the plugin this config runs.' }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether the destination receives events.' }),
    order: t.exposeInt('order', {
      description: 'Its position in the pipeline (the upstream lists by order, then plugin).',
    }),
    name: t.exposeString('name', { nullable: true, description: 'Its name.' }),
    description: t.exposeString('description', { nullable: true, description: 'Its description.' }),
    deleted: t.exposeBoolean('deleted', { description: 'Whether it is soft-deleted.' }),
    filters: t.expose('filters', {
      type: 'JSON',
      nullable: true,
      description: 'Which events reach it, as the upstream stores them.',
    }),
    config: t.expose('config', {
      type: 'JSON',
      nullable: true,
      description:
        'The plugin settings: an object (PostHog, secrets masked) or a string (as the interface document types it).',
    }),
    error: t.expose('error', {
      type: 'JSON',
      nullable: true,
      description: 'The last error, if the upstream reports one.',
    }),
    teamId: t.exposeInt('teamId', { nullable: true, description: 'The upstream team id.' }),
    pluginInfo: t.field({
      type: 'JSON',
      nullable: true,
      description:
        'The plugin’s description. Lists leave it out upstream; it is then read from the config itself.',
      resolve: (config, _args, ctx) => ctx.loaders.configs.fieldOf(config, 'pluginInfo'),
    }),
    deliveryRate24h: t.float({
      nullable: true,
      description: 'The share of events delivered in the last 24 hours, in [0, 1].',
      resolve: (config, _args, ctx) => ctx.loaders.configs.fieldOf(config, 'deliveryRate24h'),
    }),
    createdAt: t.expose('createdAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it was created.',
    }),
    updatedAt: t.expose('updatedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it last changed.',
    }),
  }),
});

// What reaches beyond the config's own record: its plugin's frontend and its activity.
builder.objectFields(DestinationConfigRef, (t) => ({
  frontend: t.field({
    type: DestinationFrontendRef,
    nullable: true,
    description: 'The plugin’s frontend (GET …/:id/frontend).',
    deprecationReason: `PostHog no longer serves plugin frontends to API keys (2026). Against today’s PostHog it answers UPSTREAM_UNSUPPORTED.`,
    resolve: (config, _args, ctx) => ctx.loaders.configs.frontend(keyOf(config)),
  }),
  activity: t.connection(
    {
      type: ActivityLogEntryRef,
      nullable: true,
      description:
        'The activity log entries about this config (scope PluginConfig, item_id = its databaseId).',
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
    contentType: t.exposeString('contentType', { description: 'The upstream’s Content-Type.' }),
    config: t.expose('config', {
      type: DestinationConfigRef,
      nullable: true,
      description: 'Set when the upstream answers with a config object (as the interface document says).',
    }),
    source: t.exposeString('source', {
      nullable: true,
      description: 'Set when the upstream answers with JavaScript source (as PostHog does).',
    }),
  }),
});

const DestinationConfigConnection = builder.connectionObject(
  {
    type: DestinationConfigRef,
    name: 'DestinationConfigConnection',
    description: 'Destination configs in the upstream’s order, as a Relay connection.',
    fields: (t) => ({
      totalCount: t.int({
        description: 'How many configs the upstream lists.',
        resolve: (c) => c.totalCount ?? 0,
      }),
    }),
  },
  { name: 'DestinationConfigEdge', description: 'A destination config and its cursor.' },
);

builder.objectFields(ProjectRef, (t) => ({
  destinationConfigs: t.connection(
    {
      type: DestinationConfigRef,
      nullable: true,
      description:
        'The project’s destination configs in the upstream’s order (first/after and last/before over its limit/offset list).',
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
    description: 'A config by its integer id; null when the upstream answers 404.',
    args: { databaseId: t.arg.int({ required: true, description: 'The config’s integer id.' }) },
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
