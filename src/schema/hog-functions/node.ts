// HogFunction and HogFunctionRevision as Nodes: their global ids are
// `HogFunction:<projectId>:<uuid>` and `HogFunctionRevision:<projectId>:<function uuid>:<version>`.
import { PROJECT_ID_PATTERN, UUID_PATTERN } from '../../core/ids.ts';
import { registerNodeType } from '../global-id.ts';

declare module '../global-id.ts' {
  interface NodeIds {
    HogFunction: { projectId: string; uuid: string };
    HogFunctionRevision: { projectId: string; uuid: string; version: number };
  }
}

registerNodeType({
  typename: 'HogFunction',
  scope: 'hog_function:read',
  parts: [PROJECT_ID_PATTERN, UUID_PATTERN],
  read: ([projectId, uuid]) => ({ projectId: projectId!, uuid: uuid! }),
  load: (ctx, id, fromLists) =>
    ctx.loaders.hogFunctions.load({ projectId: id.projectId, uuid: id.uuid }, { fromLists }),
});

registerNodeType({
  typename: 'HogFunctionRevision',
  scope: 'hog_function:read',
  // A version as HogFunction.version counts: 0 or more, no leading zero, within a GraphQL Int.
  parts: [PROJECT_ID_PATTERN, UUID_PATTERN, String.raw`0|[1-9]\d{0,8}`],
  read: ([projectId, uuid, version]) => ({ projectId: projectId!, uuid: uuid!, version: Number(version) }),
  load: (ctx, { projectId, uuid, version }) =>
    ctx.loaders.hogFunctionHistory.revision({ projectId, uuid, version }),
});
