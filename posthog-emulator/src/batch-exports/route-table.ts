// The batch export routes (products/batch_exports/backend/routes.py: `batch_exports` under
// /api/projects/:id/, with `runs` and `backfills` nested under it), served by the 2026 dialect
// only. Scopes as posthog/permissions.py reads BatchExportViewSet and its nested viewsets: list and
// retrieve need batch_export:read; create, update, destroy and the custom actions with
// required_scopes need batch_export:write; `logs` declares none, so every personal API key is
// refused it.
import {
  cancelBackfill,
  createBackfill,
  listBackfills,
  retrieveBackfill,
} from './backfill-routes.ts';
import { destinationTest } from './destination-tests.ts';
import {
  createBatchExport,
  deleteBatchExport,
  listBatchExports,
  pauseBatchExport,
  refuseBatchExportLogs,
  retrieveBatchExport,
  unpauseBatchExport,
  updateBatchExport,
} from './routes.ts';
import { cancelRun, listRuns, retrieveRun, retryRun } from './run-routes.ts';
import type { Operation, Route } from '../routes.ts';

const EXPORTS = '/api/projects/(?<project>[^/]+)/batch_exports';
const EXPORT = `${EXPORTS}/(?<id>[^/.]+)`;
const RUN = `${EXPORT}/runs/(?<run>[^/.]+)`;
const BACKFILL = `${EXPORT}/backfills/(?<backfill>[^/.]+)`;
const route = (path: string) => new RegExp(`^${path}/?$`);
const read = (handle: Operation['handle']): Operation => ({ scope: 'batch_export:read', handle });
const write = (handle: Operation['handle']): Operation => ({ scope: 'batch_export:write', handle });
const refused: Operation = { scope: 'batch_export:read', custom: true, handle: refuseBatchExportLogs };

export const BATCH_EXPORT_ROUTES: Route[] = [
  { pattern: route(EXPORTS), methods: { GET: read(listBatchExports), POST: write(createBatchExport) } },
  // A list action: DRF's router matches it before the detail route, so `test` is no export id.
  { pattern: route(`${EXPORTS}/test`), methods: { GET: read(destinationTest) } },
  {
    pattern: route(EXPORT),
    methods: {
      GET: read(retrieveBatchExport),
      PATCH: write((ctx) => updateBatchExport(ctx, true)),
      PUT: write((ctx) => updateBatchExport(ctx, false)),
      DELETE: write(deleteBatchExport),
    },
  },
  { pattern: route(`${EXPORT}/pause`), methods: { POST: write(pauseBatchExport) } },
  { pattern: route(`${EXPORT}/unpause`), methods: { POST: write(unpauseBatchExport) } },
  { pattern: route(`${EXPORT}/logs`), methods: { GET: refused } },
  { pattern: route(`${EXPORT}/runs`), methods: { GET: read(listRuns) } },
  { pattern: route(RUN), methods: { GET: read(retrieveRun) } },
  { pattern: route(`${RUN}/retry`), methods: { POST: write(retryRun) } },
  { pattern: route(`${RUN}/cancel`), methods: { POST: write(cancelRun) } },
  { pattern: route(`${RUN}/logs`), methods: { GET: refused } },
  {
    pattern: route(`${EXPORT}/backfills`),
    methods: { GET: read(listBackfills), POST: write(createBackfill) },
  },
  { pattern: route(BACKFILL), methods: { GET: read(retrieveBackfill) } },
  { pattern: route(`${BACKFILL}/cancel`), methods: { POST: write(cancelBackfill) } },
].map((r) => ({ ...r, projectScoped: true, dialects: ['posthog-2026'] as const }));
