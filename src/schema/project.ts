// Project: the scope of every upstream path. `project(projectId:)` asks the upstream nothing
// until a field needs it; `projects` lists what the caller's key can see.

import { validateProjectId } from '../core/ids.ts';
import { mapMaybePromise } from '../core/maybe-promise.ts';
import type { ProjectRecord } from '../upstream/posthog/records.ts';
import { builder } from './builder.ts';
import { offsetConnection } from './connections/offset.ts';
import { priced } from './cost/price.ts';
import { GLOBAL_ID, OFFSET_LIST } from './cost/rules.ts';
import { projectGlobalId } from './global-id.ts';
import { isRecordOf, ProjectRef } from './refs.ts';
import { needsScopes } from './scopes.ts';

const PROJECTS_LIST = () => 'projects';

export const projectRecord = (projectId: string): ProjectRecord => ({ __typename: 'Project', projectId });

builder.objectType(ProjectRef, {
  description:
    'A PostHog project (a team, in PostHog’s code): its name, hog functions, hog function templates, destination configs (legacy plugin configs), destinations (hog functions of the destination kinds and those configs, merged) and activity log. Reading it costs nothing by itself: each field calls PostHog when selected, and names the scopes it needs.',
  interfaces: [builder.nodeInterfaceRef()],
  isTypeOf: isRecordOf('Project'),
  fields: (t) => ({
    // Always the numeric id: `@current` means another project for another key. (Not Pothos' relay
    // `id`, which wraps every resolver in an async function: this answers at once when it can.)
    id: t.id({
      description: needsScopes(
        'The project’s global id, always of its numeric id, for `node` and `nodes`. For a project addressed as "@current" it costs one GET /api/projects/@current/ a request (then project:read is needed); a numeric one costs no call.',
        'project:read',
      ),
      // A numeric id asks PostHog nothing: no scope to check (scope-gate.ts).
      extensions: {
        ...priced(GLOBAL_ID),
        scopeGate: (p: unknown) => (p as ProjectRecord).projectId === '@current',
      },
      resolve: (project, _args, ctx) =>
        mapMaybePromise(ctx.loaders.currentProject.numericId(project.projectId), projectGlobalId),
    }),
    projectId: t.exposeString('projectId', {
      description:
        'The project as it was addressed: an integer id such as "1", or "@current" (the key owner’s current project) as given to `project(projectId:)`; `id` always holds the number.',
    }),
    name: t.string({
      nullable: true,
      description: needsScopes(
        'The project’s name as PostHog shows it, e.g. "Default project"; from the `projects` list when it was read there, else GET /api/projects/:id/ (one call a request).',
        'project:read',
      ),
      // The projects listing already carries names.
      extensions: priced({ calls: ({ underProjects }) => (underProjects ? 0 : 1), worst: 1 }),
      resolve: (project, _args, ctx) => ctx.loaders.projects.nameOf(project),
    }),
  }),
});

const ProjectConnection = builder.connectionObject(
  {
    type: ProjectRef,
    name: 'ProjectConnection',
    description:
      'The projects the caller’s key can see, a page at a time (GET /api/projects/ with limit and offset).',
    edgesField: { description: 'This page’s projects, in PostHog’s order, each with its cursor.' },
    fields: (t) => ({
      totalCount: t.int({
        description: 'How many projects the key can see in all, as PostHog counts them (not only this page).',
        resolve: (c) => c.totalCount ?? 0,
      }),
    }),
  },
  {
    name: 'ProjectEdge',
    description: 'A project and its cursor.',
    nodeField: { description: 'A project the key can see, with its name already read.' },
  },
);

builder.queryFields((t) => ({
  projects: t.connection(
    {
      type: ProjectRef,
      nullable: true,
      description: needsScopes(
        'The projects the caller’s key can see (GET /api/projects/), both ways: first/after forward, last/before backward; null with FORBIDDEN when the key lacks project:read. Paged by offset, as PostHog pages it: an item created or deleted between two pages shifts the rest by one, so the next page may repeat or skip an item; reading again from the start is exact.',
        'project:read',
      ),
      extensions: priced(OFFSET_LIST),
      resolve: (_root, args, ctx) =>
        offsetConnection(PROJECTS_LIST, args, (limit, offset) =>
          ctx.loaders.projects.page({ limit, offset }),
        ),
    },
    ProjectConnection,
  ),
  project: t.field({
    type: ProjectRef,
    nullable: true,
    description:
      'A project by its integer id or "@current" (the project the key’s owner last used). Asks PostHog nothing itself, so it needs no scope: each field selected under it calls PostHog and names its own scopes. Null with BAD_USER_INPUT for any other identifier; a project the key cannot reach shows in its fields (each answers NOT_FOUND or FORBIDDEN).',
    args: {
      projectId: t.arg.string({ required: true, description: 'An integer project id, or "@current".' }),
    },
    resolve: (_root, args) => projectRecord(validateProjectId(args.projectId)),
  }),
}));
