// A hog function as PostHog 2026 answers it (docs/upstream.md), normalised into a record. A secret
// input never survives this: PostHog answers it as {"secret": true}, and every input the
// function's schema (or a mapping's) does not call not-secret is made so again here, whatever the
// answer held (secret-redaction.ts); a secret's schema `default` is left out.

import {
  redactedInputs,
  redactedInputsSchema,
  redactedMappings,
  redactedMappingTemplates,
} from '../secrets/redaction.ts';
import { normalizeHogFunctionDraft } from './hog-function-history.ts';
import { asObject, bool, int, normalizeUser, required, str } from './normalize.ts';
import {
  type HogFunctionLogRecord,
  type HogFunctionRecord,
  type HogFunctionTemplateRecord,
  MAPPINGS_AS_STORED,
} from './records.ts';

/** A template, listed (GET …/hog_function_templates/) or nested in a function's answer. */
export function normalizeHogFunctionTemplate(raw: unknown): HogFunctionTemplateRecord {
  const w = asObject(raw);
  return {
    __typename: 'HogFunctionTemplate',
    id: required(str(w.id)),
    name: str(w.name),
    description: str(w.description),
    code: str(w.code) ?? str(w.hog),
    codeLanguage: str(w.code_language),
    inputsSchema: redactedInputsSchema(w.inputs_schema),
    type: str(w.type),
    status: str(w.status),
    category: w.category ?? null,
    free: bool(w.free),
    iconUrl: str(w.icon_url),
    filters: w.filters ?? null,
    masking: w.masking ?? null,
    mappingTemplates: redactedMappingTemplates(w.mapping_templates),
  };
}

const normalizeTemplate = (raw: unknown) =>
  raw === null || raw === undefined ? null : normalizeHogFunctionTemplate(raw);

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
    inputsSchema: redactedInputsSchema(w.inputs_schema),
    inputs: redactedInputs(w.inputs, w.inputs_schema),
    filters: w.filters ?? null,
    masking: w.masking ?? null,
    mappings: redactedMappings(w.mappings),
    [MAPPINGS_AS_STORED]: w.mappings ?? null,
    iconUrl: str(w.icon_url),
    template: normalizeTemplate(w.template),
    status: status && {
      state: int(status.state) ?? 0,
      tokens: typeof status.tokens === 'number' ? status.tokens : null,
    },
    executionOrder: int(w.execution_order),
    version: int(w.version),
    draft: normalizeHogFunctionDraft(w.draft, w.draft_updated_at),
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
