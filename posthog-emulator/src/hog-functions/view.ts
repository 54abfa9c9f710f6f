// A hog function as PostHog's serializers answer it (products/cdp/backend/api/hog_function.py at
// 0019077): HogFunctionMinimalSerializer for a list, HogFunctionSerializer (every readable field,
// in Meta.fields order) for a retrieve, a write or `?full=true`. A secret input reads
// {"secret": true} (to_representation); `search_match_type` only on a list filtered by `search`.
import { formatTimestamp } from '../dialect.ts';
import { draftRepresentation, draftUpdatedAt } from './draft-state.ts';
import { serializeTemplate } from './template-routes.ts';
import { inputRepresentation, TYPES_WITH_JAVASCRIPT_SOURCE } from './inputs.ts';
import { HOG_TEMPLATES } from './seed.ts';
import type { HogFunction, User } from '../model.ts';
import type { Store } from '../store.ts';

/** HogFunctionMinimalSerializer.Meta.fields. */
const MINIMAL_FIELDS = [
  'id',
  'type',
  'name',
  'description',
  'created_at',
  'created_by',
  'updated_at',
  'enabled',
  'hog',
  'filters',
  'icon_url',
  'template',
  'status',
  'execution_order',
  'search_match_type',
  'draft_updated_at',
] as const;

/** HogFunctionSerializer.Meta.fields without the write-only ones. */
const FULL_FIELDS = [
  'id',
  'type',
  'name',
  'description',
  'created_at',
  'created_by',
  'updated_at',
  'enabled',
  'hog',
  'bytecode',
  'transpiled',
  'inputs_schema',
  'inputs',
  'filters',
  'masking',
  'mappings',
  'icon_url',
  'template',
  'status',
  'execution_order',
  'batch_export_id',
  'search_match_type',
  'version',
  'draft',
  'draft_updated_at',
] as const;

/** How a function is answered: which serializer, the search match, and (as a test double) leaks. */
export interface HogView {
  full: boolean;
  /** `exact`/`similar` on a list filtered by `search`; absent otherwise (the field is dropped). */
  searchMatch?: 'exact' | 'similar';
  /** A broken upstream's answer: secret values in plain text (ReferenceUpstreamOptions.leakSecrets). */
  leakSecrets?: boolean;
}

/** posthog/api/shared.py, UserBasicSerializer (hedgehog_config normalised, role_at_organization last). */
export function userBasic(user: User | undefined) {
  if (!user) return null;
  const config = user.hedgehog_config;
  const actor = (config?.version === 2 ? config.actor_options : config) as
    | Record<string, unknown>
    | undefined;
  const hedgehog =
    config && Object.keys(config).length > 0
      ? {
          use_as_profile: config.use_as_profile ?? null,
          color: actor?.color ?? null,
          accessories: actor?.accessories ?? null,
          skin: actor?.skin ?? null,
        }
      : null;
  const { id, uuid, distinct_id, first_name, last_name, email, is_email_verified } = user;
  return {
    id,
    uuid,
    distinct_id,
    first_name,
    last_name,
    email,
    is_email_verified,
    hedgehog_config: hedgehog,
    role_at_organization: user.role_at_organization ?? null,
  };
}

/** to_representation: each non-secret schema input (null when unset), then {"secret": true} per set secret. */
export function answeredInputs(fn: HogFunction, leak = false): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const schema of fn.inputsSchema) {
    const input = fn.inputs[schema.key];
    if (schema.secret && !leak) continue;
    inputs[schema.key] = input ? inputRepresentation(input) : null;
  }
  if (!leak)
    for (const schema of fn.inputsSchema)
      if (schema.secret && fn.inputs[schema.key]?.value) inputs[schema.key] = { secret: true };
  return inputs;
}

/** HogFunction.status: a disabled function is always {state: 0, tokens: 0}; else the CDP worker's. */
const status = (fn: HogFunction) =>
  fn.enabled ? { state: fn.statusState, tokens: fn.statusState === 1 ? 10_000 : 0 } : { state: 0, tokens: 0 };

/**
 * The compiled forms: bytecode for Hog source, transpiled JavaScript for the site_* types; a
 * legacy_destination's stored `[]` (its plugin runs, not Hog: legacy_destination_migration.py@7cc81e8).
 */
export function compiled(fn: Pick<HogFunction, 'type' | 'hog'>) {
  if (fn.type === 'legacy_destination') return { bytecode: [], transpiled: null };
  if (TYPES_WITH_JAVASCRIPT_SOURCE.includes(fn.type))
    return { bytecode: null, transpiled: `(function() {\n${fn.hog}\n})` };
  return { bytecode: ['_H', 1, 32, fn.hog.length], transpiled: null };
}

export function serializeHogFunction(store: Store, fn: HogFunction, view: HogView): Record<string, unknown> {
  const found = HOG_TEMPLATES.find((t) => t.id === fn.templateId);
  const all: Record<string, unknown> = {
    id: fn.id,
    type: fn.type,
    name: fn.name,
    description: fn.description,
    created_at: formatTimestamp(fn.createdAtMicros),
    created_by: fn.createdBy === null ? null : userBasic(store.users.get(fn.createdBy)),
    updated_at: formatTimestamp(fn.updatedAtMicros),
    enabled: fn.enabled,
    hog: fn.hog,
    ...compiled(fn),
    inputs_schema: fn.inputsSchema,
    inputs: answeredInputs(fn, view.leakSecrets),
    filters: fn.filters,
    masking: fn.masking,
    // As stored: to_representation masks only the secrets of the top-level inputs_schema, and a
    // mapping's inputs live in the plain `mappings` column (hog_function.py@0019077, model@026f251).
    mappings: fn.mappings,
    icon_url: fn.iconUrl,
    template: found ? serializeTemplate(found) : null,
    status: status(fn),
    execution_order: fn.executionOrder,
    batch_export_id: null,
    search_match_type: view.searchMatch,
    version: fn.version,
    draft: draftRepresentation(fn, view.leakSecrets),
    draft_updated_at: draftUpdatedAt(fn),
  };
  const fields = view.full ? FULL_FIELDS : MINIMAL_FIELDS;
  return Object.fromEntries(
    fields.filter((k) => k !== 'search_match_type' || view.searchMatch).map((k) => [k, all[k]]),
  );
}
