// The field-by-field half of BatchExportSerializer (products/batch_exports/backend/presentation/
// views/batch_export/exports.py at 0551d5e): each writable field read as its DRF field reads it,
// then its validate_<field> hook, in Meta.fields order. Errors are collected under the field's
// name; a PermissionDenied raised by a hook (the feature flags) is not a ValidationError, so it
// ends the request at once with 403, whatever else was wrong.
import { permissionDenied } from '../http/api-error.ts';
import { readDestination } from './destination.ts';
import type { BatchExport, BatchExportDestination, BatchExportSettings } from './model.ts';
import { INTERVALS, MODELS } from './model.ts';
import {
  boolean,
  choice,
  datetime,
  err,
  integer,
  isErrors,
  type Outcome,
  required,
  stringList,
  text,
  timezone,
} from './readers.ts';
import type { ErrorTree } from '../hog-functions/errors.ts';
import type { Store } from '../store.ts';

/** What a write says, each field as read (absent: not sent, or skipped by a partial update). */
export interface ExportFields {
  name?: string;
  model?: string;
  destination?: BatchExportDestination & { integrationGiven: boolean };
  interval?: string;
  paused?: boolean;
  lastPausedAt?: number | null;
  startAt?: number | null;
  endAt?: number | null;
  hogqlQuery?: string | null;
  hogqlModifiers?: Record<string, unknown> | null;
  primaryKey?: string[] | null;
  versionKey?: string[] | null;
  incrementalMode?: string;
  filters?: unknown;
  timezone?: string;
  offsetDay?: number | null;
  offsetHour?: number | null;
}

export interface WriteContext {
  store: Store;
  projectId: number;
  instance: BatchExport | null;
  /** PATCH: absent fields are skipped, required ones too. */
  partial: boolean;
  data: Record<string, unknown>;
}

/** The serializer's to_internal_value: every field in order, errors by field name. */
export function readExportFields(ctx: WriteContext): { fields: ExportFields; errors: ErrorTree } {
  const { data, instance, partial } = ctx;
  const settings = ctx.store.batchExports.settings;
  const errors: ErrorTree = {};
  const fields: ExportFields = {};
  const creating = instance === null;
  const read = <T>(name: string, mustHave: boolean, reader: (v: unknown) => Outcome<T>): T | undefined => {
    if (!(name in data) || data[name] === undefined) {
      if (mustHave && !partial) errors[name] = required();
      return undefined;
    }
    const outcome = reader(data[name]);
    if (isErrors(outcome)) {
      errors[name] = outcome.errors;
      return undefined;
    }
    return outcome as T;
  };
  fields.name = read('name', true, (v) => text(v, false)) as string | undefined;
  fields.model = read('model', false, (v) => choice(v, MODELS)) as string | undefined;
  if (fields.model === undefined && creating && !('model' in data)) fields.model = 'events';
  if (fields.model !== undefined) validateModel(fields.model, instance, settings, errors);
  fields.destination = read('destination', true, (v) => readDestination(ctx, v));
  fields.interval = read('interval', true, (v) => choice(v, INTERVALS)) as string | undefined;
  // validate_interval: a sub-hour interval is behind `high-frequency-batch-exports`.
  if (
    fields.interval !== undefined &&
    !['hour', 'day', 'week'].includes(fields.interval) &&
    !settings.highFrequency
  )
    throw permissionDenied('Higher frequency batch exports are not enabled for this team.');
  fields.paused = read('paused', false, boolean);
  fields.lastPausedAt = read('last_paused_at', false, datetime);
  fields.startAt = read('start_at', false, datetime);
  fields.endAt = read('end_at', false, datetime);
  fields.hogqlQuery = read('hogql_query', false, (v) => text(v, true));
  fields.hogqlModifiers = read('hogql_modifiers', false, (v) =>
    v === null || (typeof v === 'object' && !Array.isArray(v))
      ? (v as Record<string, unknown> | null)
      : // HogQLModifiersField: pydantic's message for a value that is not an object.
        err('Input should be a valid dictionary or instance of HogQLQueryModifiers'),
  );
  fields.primaryKey = read('primary_key', false, stringList);
  fields.versionKey = read('version_key', false, stringList);
  fields.incrementalMode = read('incremental_mode', false, (v) => choice(v, ['APPEND', 'MERGE'])) as
    | string
    | undefined;
  if (fields.incrementalMode === undefined && creating && !('incremental_mode' in data))
    fields.incrementalMode = 'APPEND';
  fields.filters = read('filters', false, (v) => v);
  fields.timezone = read('timezone', false, timezone);
  // validate_offset_day / validate_offset_hour read the interval from the raw body, else the instance.
  const interval = (typeof data.interval === 'string' ? data.interval : undefined) ?? instance?.interval;
  fields.offsetDay = read('offset_day', false, (v) => {
    const day = integer(v, 0, 6);
    if (isErrors(day) || day === null || interval === 'week') return day;
    return err('offset_day is not applicable for non-weekly intervals');
  });
  fields.offsetHour = read('offset_hour', false, (v) => {
    const hour = integer(v, 0, 23);
    if (isErrors(hour) || hour === null || interval === 'day' || interval === 'week') return hour;
    return err('offset_hour is not applicable for non-daily/weekly intervals');
  });
  return { fields, errors };
}

/** validate_model: `hogql` is behind `hogql-batch-exports`; the model never changes. */
function validateModel(
  model: string,
  instance: BatchExport | null,
  settings: BatchExportSettings,
  errors: ErrorTree,
) {
  if (model === 'hogql' && !settings.hogql)
    throw permissionDenied('HogQL batch exports are not enabled for this team.');
  if (instance !== null && model !== instance.model)
    errors.model = err('Changing models is not supported. Create a new batch export instead.').errors;
}
