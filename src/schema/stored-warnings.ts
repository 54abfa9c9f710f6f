// Where PostHog stored a write otherwise than asked, in a way a caller would not expect, the
// payload still answers what PostHog stored (read from its answer, never echoed from the input)
// and the answer carries a warning (extensions.warnings, answer-warnings.ts) naming the field.
import { type GraphQLResolveInfo, responsePathAsArray } from 'graphql';
import { addWarning } from '../errors/answer-warnings.ts';
import type { HogFunctionRecord } from '../upstream/posthog/records.ts';

/** The error PostHog's save leaves on filters that did not compile, when the answer shows one. */
function filtersError(stored: HogFunctionRecord): string | null {
  const filters = stored.filters as { bytecode_error?: unknown } | null;
  return filters && typeof filters.bytecode_error === 'string' ? filters.bytecode_error : null;
}

/**
 * Asked enabled, stored disabled: PostHog's HogFunction.save() stores a new function disabled,
 * with no error, when its filters stop compiling between validation and save
 * (products/cdp/backend/models/hog_functions/hog_function.py@cf2dead, `_compile_filters`).
 */
export function warnIfStoredDisabled(
  context: object,
  info: GraphQLResolveInfo,
  askedEnabled: boolean | null | undefined,
  stored: HogFunctionRecord,
): void {
  if (askedEnabled !== true || stored.enabled) return;
  const cause = filtersError(stored);
  addWarning(context, {
    code: 'STORED_DISABLED',
    message: cause
      ? `Asked to be enabled, PostHog stored the function disabled: its filters did not compile when it was saved (${cause}). Fix the filters, then enable it.`
      : 'Asked to be enabled, PostHog stored the function disabled (most likely its filters did not compile when it was saved, such as a cohort that turned static). Check its filters, then enable it.',
    path: [...responsePathAsArray(info.path), 'hogFunction', 'enabled'],
  });
}
