// The object types' references, declared apart from their fields so that resource files can
// point at each other without import cycles; and the Node types' global ids, each registered
// in its resource's node.ts (registerNodeType), in the order `node`'s errors name them.
import type {
  ActivityEntryRecord,
  ActivityUserRecord,
  BatchExportBackfillRecord,
  BatchExportRecord,
  BatchExportRunRecord,
  ConfigRecord,
  FrontendRecord,
  HogFunctionRecord,
  HogFunctionTemplateRecord,
  ImportantChangesRecord,
  ProjectRecord,
} from '../upstream/posthog/records.ts';
import './project-node.ts';
import './destination-configs/node.ts';
import './hog-functions/node.ts';
import './batch-exports/node.ts';
import { builder } from './builder.ts';

const RECORD_TYPES = new Set<string>();
/**
 * The ref of an object type whose parents are always records of upstream/posthog/records.ts
 * (plain data: no promise, no method), so its fields may read them inline (plain-fields.ts).
 */
const recordRef = <T>(name: string) => {
  RECORD_TYPES.add(name);
  return builder.objectRef<T>(name);
};
/** Whether `name` was made by recordRef. */
export const isRecordType = (name: string) => RECORD_TYPES.has(name);

export const ProjectRef = builder.objectRef<ProjectRecord>('Project');
export const DestinationConfigRef = recordRef<ConfigRecord>('DestinationConfig');
export const DestinationFrontendRef = builder.objectRef<FrontendRecord>('DestinationFrontend');
export const ActivityLogEntryRef = recordRef<ActivityEntryRecord>('ActivityLogEntry');
export const ActivityUserRef = recordRef<ActivityUserRecord>('ActivityUser');
export const ImportantChangesRef = builder.objectRef<ImportantChangesRecord>('ImportantChanges');
export const HogFunctionRef = recordRef<HogFunctionRecord>('HogFunction');
export const HogFunctionTemplateRef = recordRef<HogFunctionTemplateRecord>('HogFunctionTemplate');
export const BatchExportRef = recordRef<BatchExportRecord>('BatchExport');
export const BatchExportRunRef = recordRef<BatchExportRunRecord>('BatchExportRun');
export const BatchExportBackfillRef = recordRef<BatchExportBackfillRecord>('BatchExportBackfill');
export const DestinationRef = builder.interfaceRef<ConfigRecord | HogFunctionRecord | BatchExportRecord>(
  'Destination',
);

export const isRecordOf = (typename: string) => (value: unknown) =>
  (value as { __typename?: unknown } | null)?.__typename === typename;
