// A hog function as PostHog 2026 answers it (../shared/upstream-notes.md, "Hog functions"),
// normalised into a record. A secret input never survives this: PostHog answers it as
// {"secret": true}, and every input the function's schema marks secret is made so again here,
// whatever the answer held.

import { asObject, bool, int, normalizeUser, required, str } from './normalize.ts';
import type { HogFunctionLogRecord, HogFunctionRecord, HogFunctionTemplateRecord } from './records.ts';

const SECRET = Object.freeze({ secret: true });

/** The keys `inputs_schema` marks secret. */
function secretKeys(schema: unknown): Set<string> {
  const keys = new Set<string>();
  if (!Array.isArray(schema)) return keys;
  for (const field of schema) {
    const f = field as { key?: unknown; secret?: unknown } | null;
    if (f && typeof f.key === 'string' && f.secret === true) keys.add(f.key);
  }
  return keys;
}

/** The inputs with every secret one as {"secret": true}; anything not an object passes as null. */
export function redactedInputs(inputs: unknown, schema: unknown): unknown {
  if (inputs === null || typeof inputs !== 'object' || Array.isArray(inputs)) return null;
  const secret = secretKeys(schema);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(inputs)) {
    const markedSecret = (value as { secret?: unknown } | null)?.secret === true;
    out[key] = secret.has(key) || markedSecret ? SECRET : value;
  }
  return out;
}

function normalizeTemplate(raw: unknown): HogFunctionTemplateRecord | null {
  if (raw === null || raw === undefined) return null;
  const w = asObject(raw);
  return {
    id: required(str(w.id)),
    name: str(w.name),
    description: str(w.description),
    type: str(w.type),
    status: str(w.status),
    category: w.category ?? null,
    iconUrl: str(w.icon_url),
  };
}

export function normalizeHogFunction(raw: unknown, projectId: string): HogFunctionRecord {
  const w = asObject(raw);
  const status = w.status === null || w.status === undefined ? null : asObject(w.status);
  return {
    __typename: 'HogFunction',
    projectId,
    uuid: required(str(w.id)).toLowerCase(),
    type: required(str(w.type)),
    name: str(w.name),
    description: str(w.description),
    enabled: bool(w.enabled) ?? false,
    createdAt: str(w.created_at),
    updatedAt: str(w.updated_at),
    createdBy: normalizeUser(w.created_by),
    hog: str(w.hog),
    inputsSchema: w.inputs_schema ?? null,
    inputs: redactedInputs(w.inputs, w.inputs_schema),
    filters: w.filters ?? null,
    masking: w.masking ?? null,
    mappings: w.mappings ?? null,
    iconUrl: str(w.icon_url),
    template: normalizeTemplate(w.template),
    status: status && {
      state: int(status.state) ?? 0,
      tokens: typeof status.tokens === 'number' ? status.tokens : null,
    },
    executionOrder: int(w.execution_order),
    version: int(w.version),
  };
}

export function normalizeHogFunctionLog(raw: unknown): HogFunctionLogRecord {
  const w = asObject(raw);
  return {
    timestamp: required(str(w.timestamp)),
    level: required(str(w.level)),
    message: str(w.message) ?? '',
    instanceId: str(w.instance_id),
  };
}
