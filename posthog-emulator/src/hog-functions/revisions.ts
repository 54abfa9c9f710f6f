// A hog function's revisions (products/cdp/backend/api/hog_function.py at 0019077,
// HogFunctionViewSet._record_revision, revisions, revision_detail): a live config change bumps
// `version` and stores a snapshot of the config (hog, inputs_schema, inputs without secrets,
// filters, mappings, masking); the first tracked change also snapshots the version before it,
// with no author. Restoring one (restore_revision) stages it as the draft, never the live config.
import { notFound } from '../http/api-error.ts';
import { formatTimestamp } from '../dialect.ts';
import { hogValidationError } from './errors.ts';
import { draftExists } from './conflicts.ts';
import { draftChanges, writeDraft } from './draft-state.ts';
import { readBoolean } from './fields.ts';
import { requireHogFunction, viewOf } from './routes.ts';
import { serializeHogFunction, userBasic } from './view.ts';
import { plainInputs } from './write.ts';
import { logHogActivity } from './seed.ts';
import type { HogFunction, HogFunctionRevision } from '../model.ts';
import { limitOffsetPage } from '../http/pagination.ts';
import { ok, type Reply, type RouteContext } from '../http/reply.ts';
import type { Store } from '../store.ts';

/** snapshot_hog_function_content: DRAFT_CONTENT_FIELDS, secrets split off. */
export const contentOf = (fn: HogFunction): Record<string, unknown> =>
  structuredClone({
    hog: fn.hog,
    inputs_schema: fn.inputsSchema,
    inputs: plainInputs(fn),
    filters: fn.filters,
    mappings: fn.mappings,
    masking: fn.masking,
  });

/** _record_revision, after a write that bumped `version` from `before`'s. */
export function recordRevision(fn: HogFunction, before: HogFunction, userId: number, at: number): void {
  fn.revisions ??= [];
  if (fn.revisions.length === 0)
    fn.revisions.push({
      version: before.version,
      createdAtMicros: at,
      createdBy: null,
      content: contentOf(before),
    });
  fn.revisions.push({ version: fn.version, createdAtMicros: at, createdBy: userId, content: contentOf(fn) });
}

const basic = (store: Store, r: HogFunctionRevision) => ({
  version: r.version,
  created_at: formatTimestamp(r.createdAtMicros),
  created_by: r.createdBy === null ? null : userBasic(store.users.get(r.createdBy)),
});

// products/cdp/backend/api/hog_function.py, HogFunctionViewSet.revisions
export function listHogFunctionRevisions(ctx: RouteContext): Reply {
  const fn = requireHogFunction(ctx);
  const newestFirst = [...(fn.revisions ?? [])].sort((a, b) => b.version - a.version);
  const page = limitOffsetPage(newestFirst, ctx.url);
  return ok({ ...page, results: page.results.map((r) => basic(ctx.store, r)) });
}

// products/cdp/backend/api/hog_function.py, HogFunctionViewSet.revision_detail
export function retrieveHogFunctionRevision(ctx: RouteContext): Reply {
  const fn = requireHogFunction(ctx);
  const revision = fn.revisions?.find((r) => r.version === Number(ctx.params.version));
  if (!revision) throw notFound('No such revision for this function.');
  return ok({ ...basic(ctx.store, revision), content: revision.content });
}

// products/cdp/backend/api/hog_function.py, HogFunctionViewSet.restore_revision: the revision's
// content becomes the draft (its secrets re-attach from the live ones on publish, so the draft
// stages none); over a staged draft only with overwrite=true, else 409 draft_exists.
export function restoreHogFunctionRevision(ctx: RouteContext): Reply {
  const { store, key } = ctx;
  const given = ctx.body.data.overwrite;
  const overwrite = given === undefined ? false : readBoolean(given);
  if (typeof overwrite !== 'boolean') throw hogValidationError({ overwrite: [overwrite] });
  const fn = requireHogFunction(ctx);
  const revision = fn.revisions?.find((r) => r.version === Number(ctx.params.version));
  if (!revision) throw notFound('No such revision for this function.');
  if (fn.draft && !overwrite) throw draftExists();
  const now = store.nowMicros();
  const before = writeDraft(fn, revision.content, null, now);
  const changes = draftChanges(before, fn.draft ?? null, store.leakSecrets);
  logHogActivity(store, key.userId, fn, 'revision_restored', changes, now);
  return ok(serializeHogFunction(store, fn, viewOf(store, true)));
}
