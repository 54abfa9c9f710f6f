// Writes to batch exports, their runs and backfills (PostHog 2026). Each is sent once; what the
// payload shows is read again where PostHog answers only an acknowledgement ({"paused": true},
// {"backfill_id": …}, {"cancelled": true}). PostHog's serializer has traps a gateway must step
// around (PostHog's products/batch_exports/backend/presentation/views/batch_export/exports.py): a write carrying `destination` needs its
// `type` and `config` both (else 500), and for BigQuery, Databricks and AzureBlob its
// `integration_id` again; an offset change needs the `interval` it is validated against. The
// stored export is read for what the caller left out.
import { badUserInput, malformedUpstreamBody } from '../../errors/codes.ts';
import type { CallerUpstream } from '../../upstream/call.ts';
import { normalizeBatchExport } from '../../upstream/posthog/batch-exports.ts';
import { PATHS } from '../../upstream/posthog/paths.ts';
import type {
  BatchExportBackfillRecord,
  BatchExportRecord,
  BatchExportRunRecord,
} from '../../upstream/posthog/records.ts';
import type { CurrentProject } from '../current-project.ts';
import type { BatchExportKey, BatchExports } from './exports.ts';

/** The writable fields, in PostHog's names (`destination` apart); a field left out is not sent. */
export interface BatchExportWrite {
  name?: string | null;
  model?: string | null;
  interval?: string | null;
  paused?: boolean | null;
  start_at?: string | null;
  end_at?: string | null;
  timezone?: string | null;
  offset_day?: number | null;
  offset_hour?: number | null;
  hogql_query?: string | null;
  filters?: unknown;
}

export interface DestinationWrite {
  type?: string | null;
  config?: unknown;
  integrationId?: number | null;
}

/** Destination types whose writes must name their integration each time (the stored one is not reused). */
const INTEGRATION_EVERY_WRITE = new Set(['BigQuery', 'Databricks', 'AzureBlob']);
/** Far enough back for any run: PostHog windows run reads to 7 days unless `after` says otherwise. */
const ANY_RUN = { after: '1970-01-01T00:00:00Z' };

/** Intervals whose backfills PostHog bounds by dates (validate_date_input). */
const WHOLE_DAYS = new Set(['day', 'week']);

/** `2026-10-01T00:00:00Z` as `2026-10-01`; a time other than midnight is the caller's mistake. */
function dateOf(at: string, field: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})(?:T00:00(?::00(?:\.0+)?)?(?:Z|[+-]00:?00)?)?$/.exec(at);
  if (!match)
    throw badUserInput(
      `${field}: a daily or weekly batch export backfills whole days; give a date at midnight, e.g. "${at.slice(0, 10)}T00:00:00Z".`,
      { field },
    );
  return match[1]!;
}

const present = (fields: object) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

export class BatchExportWrites {
  constructor(
    private readonly upstream: CallerUpstream,
    private readonly batchExports: BatchExports,
    private readonly currentProject: CurrentProject,
  ) {}

  /** POST …/batch_exports/. */
  async create(projectId: string, fields: BatchExportWrite, destination: DestinationWrite) {
    const answer = await this.upstream.request({
      method: 'POST',
      path: PATHS.batchExports(projectId),
      json: { ...present(fields), destination: destinationBody(destination) },
    });
    return this.keep(normalizeBatchExport(answer.body, projectId));
  }

  /** PATCH …/:id/ with only the fields given; PostHog merges `config`, so secrets left out are kept. */
  async update(key: BatchExportKey, fields: BatchExportWrite, config: unknown) {
    const needsStored = config !== undefined || fields.offset_day != null || fields.offset_hour != null;
    const stored = needsStored ? await this.batchExports.load(key) : null;
    const body: Record<string, unknown> = present(fields);
    if (stored && (fields.offset_day != null || fields.offset_hour != null))
      body.interval ??= stored.interval;
    if (stored && config !== undefined) {
      const type = stored.destinationType;
      body.destination = destinationBody({
        type,
        config,
        integrationId: INTEGRATION_EVERY_WRITE.has(type) ? stored.integrationId : undefined,
      });
    }
    const answer = await this.upstream.request({
      method: 'PATCH',
      path: PATHS.batchExport(key.projectId, key.uuid),
      json: body,
    });
    return this.keep(normalizeBatchExport(answer.body, key.projectId));
  }

  /** DELETE …/:id/ (PostHog marks it deleted). Returns the numeric project id, known before the write. */
  async delete(key: BatchExportKey): Promise<string> {
    const numericProjectId = await this.currentProject.numericId(key.projectId);
    await this.upstream.request({ method: 'DELETE', path: PATHS.batchExport(key.projectId, key.uuid) });
    this.batchExports.forget(key);
    return numericProjectId;
  }

  /** POST …/pause/ or …/unpause/ ({"backfill": true} exports what the pause skipped); the export as it is now. */
  async setPaused(key: BatchExportKey, paused: boolean, backfill?: boolean | null) {
    await this.upstream.request({
      method: 'POST',
      path: paused
        ? PATHS.batchExportPause(key.projectId, key.uuid)
        : PATHS.batchExportUnpause(key.projectId, key.uuid),
      json: paused ? {} : present({ backfill: backfill ?? undefined }),
    });
    this.batchExports.forget(key);
    return this.batchExports.load(key);
  }

  /**
   * POST …/backfills/ {start_at, end_at}: the backfill PostHog started. A daily or weekly export
   * takes dates only (PostHog refuses a time there), so its bounds are sent as their date.
   */
  async createBackfill(
    key: BatchExportKey,
    startAt: string,
    endAt: string,
  ): Promise<BatchExportBackfillRecord> {
    const { interval } = await this.batchExports.load(key);
    const bound = WHOLE_DAYS.has(interval) ? dateOf : (at: string) => at;
    const answer = await this.upstream.request({
      method: 'POST',
      path: PATHS.batchExportBackfills(key.projectId, key.uuid),
      json: { start_at: bound(startAt, 'startAt'), end_at: bound(endAt, 'endAt') },
    });
    return this.batchExports.backfill(key, backfillIdOf(answer.body));
  }

  /** POST …/backfills/:id/cancel/: the backfill as it is now. */
  async cancelBackfill(key: BatchExportKey, backfillUuid: string): Promise<BatchExportBackfillRecord> {
    await this.upstream.request({
      method: 'POST',
      path: PATHS.batchExportBackfillCancel(key.projectId, key.uuid, backfillUuid),
      json: {},
    });
    return this.batchExports.backfill(key, backfillUuid);
  }

  /** POST …/runs/:id/retry/: the backfill PostHog starts to redo the run. */
  async retryRun(key: BatchExportKey, runUuid: string): Promise<BatchExportBackfillRecord> {
    const answer = await this.upstream.request({
      method: 'POST',
      path: PATHS.batchExportRunRetry(key.projectId, key.uuid, runUuid),
      query: ANY_RUN,
      json: {},
    });
    return this.batchExports.backfill(key, backfillIdOf(answer.body));
  }

  /** POST …/runs/:id/cancel/: the run as it is now. */
  async cancelRun(key: BatchExportKey, runUuid: string): Promise<BatchExportRunRecord> {
    await this.upstream.request({
      method: 'POST',
      path: PATHS.batchExportRunCancel(key.projectId, key.uuid, runUuid),
      query: ANY_RUN,
      json: {},
    });
    return this.batchExports.run(key, runUuid);
  }

  private keep(record: BatchExportRecord): BatchExportRecord {
    this.batchExports.replace(record);
    return record;
  }
}

function destinationBody({ type, config, integrationId }: DestinationWrite) {
  return present({
    type: type ?? undefined,
    config: config ?? {},
    integration_id: integrationId ?? undefined,
  });
}

/** {"backfill_id": "<uuid>"}; anything else is a malformed answer. */
function backfillIdOf(body: unknown): string {
  const id = (body as { backfill_id?: unknown } | null)?.backfill_id;
  if (typeof id !== 'string') throw malformedUpstreamBody();
  return id;
}
