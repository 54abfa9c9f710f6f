// A hog function's filters compiled twice, as PostHog does: once when the write is validated
// (HogFunctionFiltersSerializer.validate, posthog/cdp/validation.py@8af1e6b: a filter that does
// not compile is refused, 400 "Invalid filter configuration: …" on attr
// `filters__non_field_errors`), and again in HogFunction.save()
// (products/cdp/backend/models/hog_functions/hog_function.py@cf2dead, `_compile_filters`): a
// filter that compiled during validation and not during the save leaves the error on the
// filters (`bytecode: null`, `bytecode_error`) and, for a new function saved enabled, stores it
// disabled, with no error. An existing function stays as it was enabled.
//
// What does not compile here: a cohort that cannot be inlined (a static one), with the text of
// posthog/hogql/compiler/bytecode.py ("Can't use cohorts in real-time filters. …"). A cohort can
// be made to turn static between the two compilations (`/__control/cohorts`, docs/upstream.md).
import { ApiError } from '../http/api-error.ts';
import type { HogFunction } from '../model.ts';
import type { Store } from '../store.ts';

export interface Cohort {
  id: number;
  projectId: number;
  name: string;
  isStatic: boolean;
  /** Turns static once the next save's validation has passed (the race the save guards against). */
  turnsStaticDuringNextSave: boolean;
}

/** TYPES_WITH_TRANSPILED_FILTERS: their filters become JavaScript, not bytecode. */
const TRANSPILED_TYPES = ['site_destination', 'site_app'];
/** COHORT_FILTER_TYPES. */
const COHORT_FILTER_TYPES = ['cohort', 'static-cohort', 'precalculated-cohort', 'dynamic-cohort'];

const cohortsByStore = new WeakMap<Store, Map<number, Cohort>>();

/** The store's cohorts: project 1 has one of person properties (inlinable) and one static list. */
export function cohortsOf(store: Store): Map<number, Cohort> {
  let cohorts = cohortsByStore.get(store);
  if (!cohorts) {
    cohorts = new Map([
      [
        1,
        { id: 1, projectId: 1, name: 'Paying customers', isStatic: false, turnsStaticDuringNextSave: false },
      ],
      [2, { id: 2, projectId: 1, name: 'Beta list (CSV)', isStatic: true, turnsStaticDuringNextSave: false }],
    ]);
    cohortsByStore.set(store, cohorts);
  }
  return cohorts;
}

/** The cohort ids a filter tree names (property filters of a cohort type, key "id"). */
function cohortIds(node: unknown, found: number[] = []): number[] {
  if (Array.isArray(node)) for (const child of node) cohortIds(child, found);
  else if (node && typeof node === 'object') {
    const w = node as Record<string, unknown>;
    if (COHORT_FILTER_TYPES.includes(String(w.type)) && w.key === 'id') found.push(Number(w.value));
    for (const value of Object.values(w)) if (typeof value === 'object') cohortIds(value, found);
  }
  return found;
}

/** compile_filters_bytecode's error for these filters, or null when they compile. */
function compileError(store: Store, projectId: number, filters: unknown): string | null {
  const cohorts = cohortsOf(store);
  for (const id of cohortIds(filters)) {
    const cohort = cohorts.get(id);
    if (!cohort || cohort.projectId !== projectId || cohort.isStatic)
      return `Can't use cohorts in real-time filters. Please inline the relevant expressions (cohort id=${id}).`;
  }
  return null;
}

/** The validation's compile: refuses filters that do not compile. */
export function refuseUncompilableFilters(store: Store, projectId: number, type: string, filters: unknown) {
  if (TRANSPILED_TYPES.includes(type)) return;
  const error = compileError(store, projectId, filters);
  if (error)
    throw new ApiError(
      400,
      'validation_error',
      'invalid_input',
      `Invalid filter configuration: ${error}`,
      'filters__non_field_errors',
    );
}

/** The save's compile: the error stays on the filters; a new enabled function is stored disabled. */
export function compileOnSave(store: Store, fn: HogFunction, isNew: boolean): void {
  if (TRANSPILED_TYPES.includes(fn.type) || fn.filters === null || typeof fn.filters !== 'object') return;
  const cohorts = cohortsOf(store);
  for (const id of cohortIds(fn.filters)) {
    const cohort = cohorts.get(id);
    if (cohort?.turnsStaticDuringNextSave)
      Object.assign(cohort, { isStatic: true, turnsStaticDuringNextSave: false });
  }
  const { bytecode_error: _previous, ...filters } = fn.filters as Record<string, unknown>;
  const error = compileError(store, fn.projectId, filters);
  fn.filters = error ? { ...filters, bytecode: null, bytecode_error: error } : filters;
  if (error && isNew && fn.enabled) fn.enabled = false;
}

/**
 * PUT /__control/cohorts {"id", "static"?, "turnsStaticDuringNextSave"?}: a cohort of the store
 * turns static now, or once the next save that names it has passed validation.
 */
export function setCohort(store: Store, data: Record<string, unknown>) {
  const cohort = cohortsOf(store).get(Number(data.id));
  if (!cohort) return { status: 404, json: { detail: 'no such cohort' } };
  if (typeof data.static === 'boolean') cohort.isStatic = data.static;
  if (typeof data.turnsStaticDuringNextSave === 'boolean')
    cohort.turnsStaticDuringNextSave = data.turnsStaticDuringNextSave;
  return { status: 200, json: cohort };
}
