// A hog function as PostHog's serializer answers it: the list's fields, or all of them on a
// retrieve, a write or `?full=true`. A secret input reads {"secret": true}: its value never leaves.
import { formatTimestamp } from './dialect.ts';
import { HOG_TEMPLATES } from './hog-seed.ts';
import type { HogFunction } from './model.ts';
import type { Store } from './store.ts';

const LIST_FIELDS = [
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
] as const;

function userOf(store: Store, id: number | null) {
  const user = id === null ? undefined : store.users.get(id);
  if (!user) return null;
  const {
    id: userId,
    uuid,
    distinct_id,
    first_name,
    last_name,
    email,
    is_email_verified,
    hedgehog_config,
  } = user;
  return { id: userId, uuid, distinct_id, first_name, last_name, email, is_email_verified, hedgehog_config };
}

/** The inputs as answered: a secret one as {"secret": true}. */
export function answeredInputs(fn: HogFunction): Record<string, unknown> {
  const secret = new Set(fn.inputsSchema.filter((i) => i.secret).map((i) => i.key));
  return Object.fromEntries(
    Object.entries(fn.inputs).map(([key, input]) => [key, secret.has(key) ? { secret: true } : input]),
  );
}

export function serializeHogFunction(store: Store, fn: HogFunction, full: boolean): Record<string, unknown> {
  const found = HOG_TEMPLATES.find((t) => t.id === fn.templateId);
  const template = found && {
    id: found.id,
    name: found.name,
    description: found.description,
    type: found.type,
    status: found.status,
    category: found.category,
    free: found.free,
    icon_url: found.icon_url,
  };
  const all: Record<string, unknown> = {
    id: fn.id,
    type: fn.type,
    name: fn.name,
    description: fn.description,
    created_at: formatTimestamp(fn.createdAtMicros),
    created_by: userOf(store, fn.createdBy),
    updated_at: formatTimestamp(fn.updatedAtMicros),
    enabled: fn.enabled,
    hog: fn.hog,
    bytecode: ['_H', 1, 32, fn.hog.length],
    transpiled: null,
    inputs_schema: fn.inputsSchema,
    inputs: answeredInputs(fn),
    filters: fn.filters,
    masking: fn.masking,
    mappings: fn.mappings,
    icon_url: fn.iconUrl,
    template: template ?? null,
    status: { state: fn.statusState, tokens: fn.statusState === 1 ? 10_000 : 0 },
    execution_order: fn.executionOrder,
    version: fn.version,
  };
  return full ? all : Object.fromEntries(LIST_FIELDS.map((k) => [k, all[k]]));
}
