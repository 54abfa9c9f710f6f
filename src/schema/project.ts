// Project: the scope of every upstream path. `project(projectId:)` asks the upstream nothing
// until a field needs it; `projects` lists what the caller's key can see.

import { validateProjectId } from '../ids.ts';
import { mapMaybePromise } from '../maybe-promise.ts';
import type { ProjectRecord } from '../upstream/records.ts';
import { builder } from './builder.ts';
import { offsetConnection } from './connections/offset.ts';
import { projectGlobalId } from './global-id.ts';
import { isRecordOf, ProjectRef } from './refs.ts';

const PROJECTS_LIST = () => 'projects';

export const projectRecord = (projectId: string): ProjectRecord => ({ __typename: 'Project', projectId });

builder.objectType(ProjectRef, {
  description: 'A PostHog project: the scope of destination configs and of an activity log.',
  interfaces: [builder.nodeInterfaceRef()],
  isTypeOf: isRecordOf('Project'),
  fields: (t) => ({
    // Always the numeric id: `@current` means another project for another key. (Not Pothos' relay
    // `id`, which wraps every resolver in an async function: this answers at once when it can.)
    id: t.id({
      description: 'The global id: opaque, stable, accepted by `node` and `nodes`.',
      resolve: (project, _args, ctx) =>
        mapMaybePromise(ctx.loaders.currentProject.numericId(project.projectId), projectGlobalId),
    }),
    projectId: t.exposeString('projectId', {
      description:
        'The upstream project identifier: an integer id, or "@current" for the key owner’s current project.',
    }),
    name: t.string({
      nullable: true,
      description: 'The project’s name (GET /api/projects/:id/).',
      resolve: (project, _args, ctx) => ctx.loaders.projects.nameOf(project),
    }),
  }),
});

const ProjectConnection = builder.connectionObject(
  {
    type: ProjectRef,
    name: 'ProjectConnection',
    description: 'Projects the caller’s key can see, as a Relay connection.',
    fields: (t) => ({
      totalCount: t.int({
        description: 'How many projects there are in all.',
        resolve: (c) => c.totalCount ?? 0,
      }),
    }),
  },
  { name: 'ProjectEdge', description: 'A project and its cursor.' },
);

builder.queryFields((t) => ({
  projects: t.connection(
    {
      type: ProjectRef,
      nullable: true,
      description: 'The projects the caller’s key can see (GET /api/projects/).',
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
      'A project by its upstream identifier (an integer or "@current"). Asks the upstream nothing until a field needs it; null with BAD_USER_INPUT for any other identifier.',
    args: {
      projectId: t.arg.string({ required: true, description: 'An integer project id, or "@current".' }),
    },
    resolve: (_root, args) => projectRecord(validateProjectId(args.projectId)),
  }),
}));
