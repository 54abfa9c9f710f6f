// Project as a Node: its global id is `Project:<projectId>`.
import { PROJECT_ID_PATTERN } from '../core/ids.ts';
import { registerNodeType } from './global-id.ts';

declare module './global-id.ts' {
  interface NodeIds {
    Project: { projectId: string };
  }
}

registerNodeType({
  typename: 'Project',
  scope: 'project:read',
  parts: [PROJECT_ID_PATTERN],
  read: ([projectId]) => ({ projectId: projectId! }),
  load: (ctx, id) => ctx.loaders.projects.load(id.projectId),
});
