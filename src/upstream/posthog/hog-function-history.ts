// A hog function's staged draft and its revisions as PostHog 2026 answers them
// (products/cdp/backend/api/hog_function.py@0019077: `draft` in the full serializer,
// HogFunctionRevisionBasicSerializer and HogFunctionRevisionSerializer), normalised into records.
// A draft's secret inputs read {"secret": true} whatever the answer held (secret-redaction.ts):
// PostHog masks them, and a revision carries none.

import { redactedInputs, redactedInputsSchema, redactedMappings } from '../secrets/redaction.ts';
import { asObject, int, normalizeUser, required, str } from './normalize.ts';
import type { ActivityUserRecord } from './records.ts';

/** The config a draft or a revision holds (DRAFT_CONTENT_FIELDS), redacted. */
export interface HogFunctionContentRecord {
  hog: string | null;
  inputsSchema: unknown;
  inputs: unknown;
  filters: unknown;
  mappings: unknown;
  masking: unknown;
}

export interface HogFunctionDraftRecord extends HogFunctionContentRecord {
  updatedAt: string;
  /** PostHog's draft stages config only: these read null unless an upstream stages them too. */
  name: string | null;
  description: string | null;
}

export interface HogFunctionRevisionRecord extends Partial<HogFunctionContentRecord> {
  readonly __typename: 'HogFunctionRevision';
  projectId: string;
  /** The function's UUID. */
  uuid: string;
  version: number;
  createdAt: string | null;
  createdBy: ActivityUserRecord | null;
  /** Only the detail route answers the config (`content`); a listed revision has none. */
  hasContent: boolean;
  name: string | null;
}

function content(raw: unknown): HogFunctionContentRecord {
  const w = asObject(raw);
  return {
    hog: str(w.hog),
    inputsSchema: redactedInputsSchema(w.inputs_schema),
    inputs: redactedInputs(w.inputs, w.inputs_schema),
    filters: w.filters ?? null,
    mappings: redactedMappings(w.mappings),
    masking: w.masking ?? null,
  };
}

/** A function answer's `draft` and `draft_updated_at`; null when nothing is staged. */
export function normalizeHogFunctionDraft(draft: unknown, updatedAt: unknown): HogFunctionDraftRecord | null {
  if (draft === null || draft === undefined || typeof draft !== 'object') return null;
  const w = asObject(draft);
  return {
    ...content(draft),
    updatedAt: str(updatedAt) ?? required(str(w.updated_at)),
    name: str(w.name),
    description: str(w.description),
  };
}

/** A revision, listed (version, created_at, created_by) or read alone (with `content`). */
export function normalizeHogFunctionRevision(
  raw: unknown,
  projectId: string,
  uuid: string,
): HogFunctionRevisionRecord {
  const w = asObject(raw);
  const config = w.content === undefined || w.content === null ? null : content(w.content);
  const c = w.content && typeof w.content === 'object' ? asObject(w.content) : {};
  return {
    __typename: 'HogFunctionRevision',
    projectId,
    uuid,
    version: required(int(w.version)),
    createdAt: str(w.created_at),
    createdBy: normalizeUser(w.created_by),
    hasContent: config !== null,
    name: str(c.name),
    ...(config ?? {}),
  };
}
