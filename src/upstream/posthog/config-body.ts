// The body of a config create or update, as the upstream accepts it. PostHog drops a JSON
// `config` silently and reads it only from a form field holding JSON, so when the caller sets
// `config` every field goes as a form field; otherwise the body is JSON. The secret mask the
// upstream sends in place of a secret is never sent back: a secret left out keeps its value.

import { badUserInput } from '../../errors/codes.ts';
import type { UpstreamCall } from '../call.ts';

export const SECRET_MASK = '**************** POSTHOG SECRET FIELD ****************';

export interface ConfigWrite {
  plugin?: number;
  enabled?: boolean;
  order?: number;
  name?: string | null;
  description?: string | null;
  deleted?: boolean;
  filters?: unknown;
  config?: unknown;
}

function withoutMaskedSecrets(config: unknown): Record<string, unknown> {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw badUserInput('`config` must be a JSON object of plugin settings.', { field: 'config' });
  }
  return Object.fromEntries(Object.entries(config).filter(([, value]) => value !== SECRET_MASK));
}

export function configWriteBody(fields: ConfigWrite): Pick<UpstreamCall, 'json' | 'form'> {
  const present = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  if (present.config === undefined) return { json: present };
  const form: Record<string, string> = {};
  for (const [key, value] of Object.entries(present)) {
    if (key === 'config') form.config = JSON.stringify(withoutMaskedSecrets(value));
    else if (key === 'filters') form.filters = JSON.stringify(value);
    // A form has no null: an empty text field is how a form clears name or description.
    else form[key] = value === null ? '' : String(value);
  }
  return { form };
}
