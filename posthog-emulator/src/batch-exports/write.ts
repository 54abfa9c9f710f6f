// A batch export write as BatchExportSerializer validates it (products/batch_exports/backend/
// presentation/views/batch_export/exports.py at 0551d5e): the fields (batch-export-fields.ts),
// then validate(): the interval offset, the HTTP model rule, the attributes only one model takes,
// a hogql export's query. Then create() or update(): PATCH merges destination.config recursively,
// so a secret left out is kept.
import { serverError } from '../http/api-error.ts';
import { recursiveMerge } from './destination.ts';
import { type ExportFields, readExportFields, type WriteContext } from './fields.ts';
import type { BatchExport } from './model.ts';
import { exceptionsHogError } from './readers.ts';
import { type ErrorTree, fieldError, listed } from '../hog-functions/errors.ts';

export interface ValidatedWrite {
  fields: ExportFields;
  /** interval_offset when validate() sets it (undefined: left as stored). */
  intervalOffset?: number | null;
}

const only = (name: string, model: string, actual: string | null): ErrorTree => ({
  [name]: fieldError(`'${name}' is only supported for '${model}' not '${actual}' model`),
});

export function validateExportWrite(ctx: WriteContext): ValidatedWrite {
  const { fields, errors } = readExportFields(ctx);
  if (Object.keys(errors).length > 0) throw exceptionsHogError(errors);
  const result: ValidatedWrite = { fields };
  const offsetError = intervalOffset(ctx, fields, result);
  if (offsetError) throw exceptionsHogError(offsetError);
  const model = ctx.instance === null ? (fields.model ?? 'events') : ctx.instance.model;
  if (fields.destination?.type === 'HTTP' && model !== 'events')
    throw exceptionsHogError({
      non_field_errors: listed(fieldError('HTTP batch exports only support the events model')),
    });
  const attributes: [string, unknown, string][] = [
    ['filters', fields.filters, 'events'],
    ['hogql_modifiers', fields.hogqlModifiers, 'hogql'],
    ['primary_key', fields.primaryKey, 'hogql'],
    ['version_key', fields.versionKey, 'hogql'],
    ['hogql_query', fields.hogqlQuery, 'hogql'],
  ];
  for (const [name, value, supported] of attributes)
    if (value !== undefined && value !== null && model !== supported)
      throw exceptionsHogError(only(name, supported, model));
  if (model === 'hogql') {
    const query = fields.hogqlQuery !== undefined ? fields.hogqlQuery : (ctx.instance?.hogqlQuery ?? null);
    if (query === null)
      throw exceptionsHogError({
        hogql_query: fieldError("'hogql_query' is required when 'model' is 'hogql'"),
      });
    const mode = fields.incrementalMode ?? ctx.instance?.incrementalMode;
    const key = fields.primaryKey !== undefined ? fields.primaryKey : (ctx.instance?.primaryKey ?? null);
    if (mode === 'MERGE' && !key?.length)
      throw exceptionsHogError({
        primary_key: fieldError("'primary_key' is required when 'incremental_mode' is 'MERGE'"),
      });
  }
  return result;
}

/** _validate_interval_offset: offset_day/offset_hour become interval_offset seconds. */
function intervalOffset(ctx: WriteContext, fields: ExportFields, result: ValidatedWrite): ErrorTree | null {
  const interval = fields.interval;
  const dayGiven = 'offset_day' in ctx.data;
  const hourGiven = 'offset_hour' in ctx.data;
  if (interval === undefined) {
    // Without an interval the offsets stay in attrs, and update() sets them on read-only properties.
    if ((dayGiven && fields.offsetDay !== undefined) || (hourGiven && fields.offsetHour !== undefined))
      throw serverError();
    return null;
  }
  const day = fields.offsetDay ?? null;
  const hour = fields.offsetHour ?? null;
  if (interval === 'day') {
    if (dayGiven && day !== null)
      return { offset_day: fieldError('offset_day should not be specified for daily intervals') };
    if (hourGiven) result.intervalOffset = hour === null ? null : hour * 3600;
    else if (!ctx.partial) result.intervalOffset = null;
  } else if (interval === 'week') {
    if (dayGiven || hourGiven) result.intervalOffset = (day ?? 0) * 86_400 + (hour ?? 0) * 3600;
    else if (!ctx.partial) result.intervalOffset = null;
  } else {
    if (dayGiven && day !== null)
      return { offset_day: fieldError('offset_day is not applicable for non-daily/weekly intervals') };
    if (hourGiven && hour !== null)
      return { offset_hour: fieldError('offset_hour is not applicable for non-daily/weekly intervals') };
    result.intervalOffset = null;
  }
  return null;
}

/** update(): the validated fields onto the stored export (the destination's config merged). */
export function applyWrite(exp: BatchExport, write: ValidatedWrite, now: number): void {
  const f = write.fields;
  if (f.destination) {
    exp.destination = {
      type: exp.destination.type,
      config: recursiveMerge(exp.destination.config, f.destination.config),
      integration: f.destination.integrationGiven ? f.destination.integration : exp.destination.integration,
    };
  }
  if (f.name !== undefined) exp.name = f.name;
  if (f.interval !== undefined) exp.interval = f.interval;
  if (f.paused !== undefined) exp.paused = f.paused;
  if (f.lastPausedAt !== undefined) exp.lastPausedAtMicros = f.lastPausedAt;
  if (f.startAt !== undefined) exp.startAtMicros = f.startAt;
  if (f.endAt !== undefined) exp.endAtMicros = f.endAt;
  if (f.hogqlQuery !== undefined) exp.hogqlQuery = f.hogqlQuery;
  if (f.hogqlModifiers !== undefined) exp.hogqlModifiers = f.hogqlModifiers;
  if (f.primaryKey !== undefined) exp.primaryKey = f.primaryKey;
  if (f.versionKey !== undefined) exp.versionKey = f.versionKey;
  if (f.incrementalMode !== undefined) exp.incrementalMode = f.incrementalMode;
  if (f.filters !== undefined) exp.filters = f.filters;
  if (f.timezone !== undefined) exp.timezone = f.timezone;
  if (write.intervalOffset !== undefined) exp.intervalOffset = write.intervalOffset;
  exp.lastUpdatedAtMicros = now;
}
