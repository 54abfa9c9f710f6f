// DestinationConfig as a Node: its global id is `DestinationConfig:<projectId>:<id>`.
import { CONFIG_ID_PATTERN, configIdFromText, PROJECT_ID_PATTERN } from '../../core/ids.ts';
import { registerNodeType } from '../global-id.ts';

declare module '../global-id.ts' {
  interface NodeIds {
    DestinationConfig: { projectId: string; databaseId: number };
  }
}

registerNodeType({
  typename: 'DestinationConfig',
  scope: 'plugin:read',
  parts: [PROJECT_ID_PATTERN, CONFIG_ID_PATTERN],
  read: ([projectId, id]) => {
    const databaseId = configIdFromText(id);
    return databaseId === null ? null : { projectId: projectId!, databaseId };
  },
  load: (ctx, id, listFieldsSuffice) =>
    ctx.loaders.configs.load({ projectId: id.projectId, id: id.databaseId }, { listFieldsSuffice }),
});
