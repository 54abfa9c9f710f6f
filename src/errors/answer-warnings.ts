// Warnings about an answer that stands but is not what the caller asked for (a write PostHog
// stored otherwise than asked): resolvers record them on the request's context and
// usePartialErrors (partial-errors.ts) adds them to the answer as `extensions.warnings`, an array
// of {code, message, path}. A warning never carries a key or a secret.

export interface AnswerWarning {
  /** What kind of difference, e.g. STORED_DISABLED. */
  code: string;
  /** What differs and the likely cause, in a sentence. */
  message: string;
  /** The response path of the field that differs. */
  path: (string | number)[];
}

const pending = new WeakMap<object, AnswerWarning[]>();

/** Records a warning for the answer of the request whose context this is. */
export function addWarning(context: object, warning: AnswerWarning): void {
  const list = pending.get(context) ?? [];
  list.push(warning);
  pending.set(context, list);
}

/** The warnings recorded since the last call, removed from the context. */
export function takeWarnings(context: object): AnswerWarning[] {
  const list = pending.get(context);
  if (!list?.length) return [];
  pending.delete(context);
  return list;
}
