// How a Django UUIDField reads an id from a URL (django/db/models/fields/__init__.py, UUIDField.
// to_python, through Python's uuid.UUID(hex=)): "urn:" and "uuid:" dropped, braces stripped,
// hyphens removed, then 32 hex digits in any case. Anything else raises Django's own
// ValidationError, which no PostHog view on these routes catches: drf-exceptions-hog
// (exceptions_hog/handler.py@a091521) answers it as a bare 500.
import { serverError } from './http/api-error.ts';

/** The canonical (lower-case, hyphenated) UUID `text` names, or null when uuid.UUID refuses it. */
export function pythonUuid(text: string): string | null {
  const hex = text
    .replaceAll('urn:', '')
    .replaceAll('uuid:', '')
    .replace(/^\{+|\}+$/g, '')
    .replaceAll('-', '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) return null;
  const h = hex.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** `queryset.filter(<uuid field>=text)`: the canonical id, or the unhandled 500. */
export function uuidLookup(text: string | undefined): string {
  const id = pythonUuid(text ?? '');
  if (id === null) throw serverError();
  return id;
}
