// A hog function's staged draft as PostHog keeps it (products/cdp/backend/api/hog_function.py at
// 0019077): `draft` is a full snapshot of the config fields (DRAFT_CONTENT_FIELDS), its secret
// inputs kept apart in `draft_encrypted_inputs` (split_content_secrets), answered with the
// `{"secret": true}` marker (_mask_draft_secrets); `draft_changed_fields` says what publishing it
// would change. Staging one: _write_draft (an agent's edit of an enabled destination) and
// restore_revision; publishing and discarding: hog-function-drafts.ts.
import { formatTimestamp } from '../dialect.ts';
import { contentOf } from './revisions.ts';
import type { ActivityChange, HogFunction, HogFunctionDraft, HogInput } from '../model.ts';

/** DRAFT_CONTENT_FIELDS: what a draft stages and publish promotes. */
export const DRAFT_CONTENT_FIELDS = [
  'hog',
  'inputs_schema',
  'inputs',
  'filters',
  'mappings',
  'masking',
] as const;

type Content = Record<string, unknown>;

const secretKeys = (content: Content): Set<string> =>
  new Set(
    (Array.isArray(content.inputs_schema) ? content.inputs_schema : [])
      .filter((s): s is { key: string; secret?: unknown } => typeof s?.key === 'string')
      .filter((s) => s.secret)
      .map((s) => s.key),
  );

/** split_content_secrets: the secret inputs moved out of `content` (which is changed in place). */
export function splitContentSecrets(content: Content): Record<string, HogInput> {
  const inputs = (content.inputs ?? {}) as Record<string, HogInput>;
  if (typeof inputs !== 'object' || Array.isArray(inputs)) return {};
  const secret = secretKeys(content);
  content.inputs = Object.fromEntries(Object.entries(inputs).filter(([k]) => !secret.has(k)));
  return Object.fromEntries(Object.entries(inputs).filter(([k]) => secret.has(k)));
}

/** The live function's secret inputs (its `encrypted_inputs`). */
export function liveSecrets(fn: HogFunction): Record<string, HogInput> {
  const secret = new Set(fn.inputsSchema.filter((s) => s.secret).map((s) => s.key));
  return Object.fromEntries(Object.entries(fn.inputs).filter(([k]) => secret.has(k)));
}

/**
 * HogFunctionSerializer._mask_draft_secrets: each secret the draft's schema declares and the draft,
 * the live function or the snapshot holds reads {"secret": true}. `leak` (a broken upstream, as a
 * test double) answers the staged values instead.
 */
export function draftRepresentation(fn: HogFunction, leak = false): Content | null {
  const draft = fn.draft;
  if (!draft) return null;
  const inputs: Content = { ...((draft.content.inputs ?? {}) as Content) };
  const staged = draft.secrets ?? {};
  const live = liveSecrets(fn);
  for (const key of secretKeys(draft.content)) {
    if (leak && staged[key]) inputs[key] = staged[key];
    else if (staged[key]?.value || live[key]?.value || inputs[key]) inputs[key] = { secret: true };
  }
  return structuredClone({ ...draft.content, inputs });
}

export const draftUpdatedAt = (fn: HogFunction): string | null =>
  fn.draft ? formatTimestamp(fn.draft.updatedAtMicros) : null;

/** comparable_content: a snapshot without what validation derives (input bytecode and order). */
function comparable(content: Content): string {
  const inputs = Object.fromEntries(
    Object.entries((content.inputs ?? {}) as Record<string, HogInput>).map(([k, v]) => [
      k,
      v && typeof v === 'object' ? { value: v.value, templating: v.templating } : v,
    ]),
  );
  return JSON.stringify(DRAFT_CONTENT_FIELDS.map((f) => (f === 'inputs' ? inputs : (content[f] ?? null))));
}

export const sameContent = (a: Content, b: Content) => comparable(a) === comparable(b);

/** draft_changed_fields: the config fields publishing would change, staged secrets as `inputs`. */
export function draftChangedFields(fn: HogFunction): string[] {
  const draft = fn.draft;
  if (!draft) return [];
  const live = contentOf(fn);
  const changed = DRAFT_CONTENT_FIELDS.filter(
    (f) => comparable({ [f]: draft.content[f] }) !== comparable({ [f]: live[f] }),
  ) as string[];
  const current = liveSecrets(fn);
  const secretsDiffer = Object.entries(draft.secrets ?? {}).some(
    ([k, v]) => JSON.stringify(current[k] ?? null) !== JSON.stringify(v),
  );
  if (!changed.includes('inputs') && secretsDiffer) changed.push('inputs');
  return changed.sort();
}

/** Stages `content` (a full snapshot) as the draft, with its own secrets; returns the one it replaced. */
export function writeDraft(
  fn: HogFunction,
  content: Content,
  secrets: Record<string, HogInput> | null,
  at: number,
): HogFunctionDraft | null {
  const before = fn.draft ?? null;
  fn.draft = {
    content: structuredClone(content),
    updatedAtMicros: at,
    secrets: secrets && Object.keys(secrets).length > 0 ? structuredClone(secrets) : null,
  };
  return before;
}

/** Clears the draft (publish, discard_draft); returns the one it held. */
export function clearDraft(fn: HogFunction): HogFunctionDraft | null {
  const before = fn.draft ?? null;
  fn.draft = null;
  return before;
}

/**
 * What changes_between writes for the draft columns (posthog/models/activity_logging/
 * activity_log.py@7c88b78): `draft` and `draft_encrypted_inputs` are masked ("masked"; null stays
 * null) and `draft_updated_at` is excluded.
 */
export function draftChanges(
  before: HogFunctionDraft | null,
  after: HogFunctionDraft | null,
  leak = false,
): ActivityChange[] {
  const pairs: [string, unknown, unknown][] = [
    ['draft', before?.content ?? null, after?.content ?? null],
    ['draft_encrypted_inputs', before?.secrets ?? null, after?.secrets ?? null],
  ];
  const changes: ActivityChange[] = [];
  for (const [field, l, r] of pairs) {
    const shown = (v: unknown) => (leak ? v : 'masked');
    const change = { type: 'HogFunction', field };
    if (l === null && r === null) continue;
    if (l === null) changes.push({ ...change, action: 'created', before: null, after: shown(r) });
    else if (r === null) changes.push({ ...change, action: 'deleted', before: shown(l), after: null });
    else if (JSON.stringify(l) !== JSON.stringify(r))
      changes.push({ ...change, action: 'changed', before: shown(l), after: shown(r) });
  }
  return changes;
}
