// BatchExport, BatchExportRun and BatchExportBackfill as Nodes: their global ids are
// `BatchExport:<projectId>:<uuid>` and `BatchExportRun:`/`BatchExportBackfill:<projectId>:<export
// uuid>:<uuid>`.
import { PROJECT_ID_PATTERN, UUID_PATTERN } from '../../core/ids.ts';
import { registerNodeType } from '../global-id.ts';

declare module '../global-id.ts' {
  interface NodeIds {
    BatchExport: { projectId: string; uuid: string };
    BatchExportRun: { projectId: string; exportUuid: string; uuid: string };
    BatchExportBackfill: { projectId: string; exportUuid: string; uuid: string };
  }
}

registerNodeType({
  typename: 'BatchExport',
  scope: 'batch_export:read',
  parts: [PROJECT_ID_PATTERN, UUID_PATTERN],
  read: ([projectId, uuid]) => ({ projectId: projectId!, uuid: uuid! }),
  load: (ctx, id, fromLists) =>
    ctx.loaders.batchExports.load({ projectId: id.projectId, uuid: id.uuid }, { fromLists }),
});

/** A run's or a backfill's id: `<projectId>:<export uuid>:<uuid>`. */
const CHILD_PARTS = [PROJECT_ID_PATTERN, UUID_PATTERN, UUID_PATTERN];
const readChild = ([projectId, exportUuid, uuid]: string[]) => ({
  projectId: projectId!,
  exportUuid: exportUuid!,
  uuid: uuid!,
});

registerNodeType({
  typename: 'BatchExportRun',
  scope: 'batch_export:read',
  parts: CHILD_PARTS,
  read: readChild,
  load: (ctx, id) => ctx.loaders.batchExports.run({ projectId: id.projectId, uuid: id.exportUuid }, id.uuid),
});

registerNodeType({
  typename: 'BatchExportBackfill',
  scope: 'batch_export:read',
  parts: CHILD_PARTS,
  read: readChild,
  load: (ctx, id) =>
    ctx.loaders.batchExports.backfill({ projectId: id.projectId, uuid: id.exportUuid }, id.uuid),
});
