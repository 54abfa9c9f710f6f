// The object types' references, declared apart from their fields so that resource files can
// point at each other without import cycles.
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
import { builder } from './builder.ts';

export const ProjectRef = builder.objectRef<ProjectRecord>('Project');
export const DestinationConfigRef = builder.objectRef<ConfigRecord>('DestinationConfig');
export const DestinationFrontendRef = builder.objectRef<FrontendRecord>('DestinationFrontend');
export const ActivityLogEntryRef = builder.objectRef<ActivityEntryRecord>('ActivityLogEntry');
export const ActivityUserRef = builder.objectRef<ActivityUserRecord>('ActivityUser');
export const ImportantChangesRef = builder.objectRef<ImportantChangesRecord>('ImportantChanges');
export const HogFunctionRef = builder.objectRef<HogFunctionRecord>('HogFunction');
export const HogFunctionTemplateRef = builder.objectRef<HogFunctionTemplateRecord>('HogFunctionTemplate');
export const BatchExportRef = builder.objectRef<BatchExportRecord>('BatchExport');
export const BatchExportRunRef = builder.objectRef<BatchExportRunRecord>('BatchExportRun');
export const BatchExportBackfillRef = builder.objectRef<BatchExportBackfillRecord>('BatchExportBackfill');
export const DestinationRef = builder.interfaceRef<ConfigRecord | HogFunctionRecord | BatchExportRecord>(
  'Destination',
);

export const isRecordOf = (typename: string) => (value: unknown) =>
  (value as { __typename?: unknown } | null)?.__typename === typename;
