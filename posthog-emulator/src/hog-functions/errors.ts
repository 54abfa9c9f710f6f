// A DRF serializer's errors, kept as the tree DRF builds (field → messages, nested serializers as
// nested maps), so that one validation can answer either way PostHog does: through
// drf-exceptions-hog ({type, code, detail, attr}, the first error only, its key path joined by
// "__", code "invalid" shown as "invalid_input"), or raw, as `Response(serializer.errors, 400)`
// answers the invocations endpoint.
import { ApiError } from '../http/api-error.ts';

export interface FieldError {
  detail: string;
  code: string;
}

export type ErrorTree = { [key: string]: FieldError | FieldError[] | ErrorTree };

export const fieldError = (detail: string, code = 'invalid'): FieldError => ({ detail, code });
const isLeaf = (v: unknown): v is FieldError =>
  typeof v === 'object' && v !== null && 'detail' in v && 'code' in v;

/** DRF's `as_serializer_error`: a field's own message becomes a one-item list. */
export const listed = (error: FieldError): FieldError[] => [error];

/** The tree as DRF renders `serializer.errors`. */
export function rawErrors(tree: ErrorTree): Record<string, unknown> {
  const render = (node: FieldError | FieldError[] | ErrorTree): unknown => {
    if (isLeaf(node)) return node.detail;
    if (Array.isArray(node)) return node.map((e) => e.detail);
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, render(v)]));
  };
  return render(tree) as Record<string, unknown>;
}

/** drf-exceptions-hog's answer for a ValidationError carrying `tree`. */
export function hogValidationError(tree: ErrorTree): ApiError {
  const path: string[] = [];
  let node: FieldError | FieldError[] | ErrorTree = tree;
  while (!isLeaf(node) && !Array.isArray(node)) {
    const [key, child] = Object.entries(node)[0]! as [string, FieldError | FieldError[] | ErrorTree];
    path.push(key);
    node = child;
  }
  const leaf = Array.isArray(node) ? node[0]! : node;
  const code = leaf.code === 'invalid' ? 'invalid_input' : leaf.code;
  const attr = path.filter((k) => k !== 'non_field_errors').join('__') || null;
  return new ApiError(400, 'validation_error', code, leaf.detail, attr);
}

/** `serializers.ValidationError({attr: detail})` raised in a view: the usual error shape. */
export const viewValidationError = (attr: string | null, detail: string) =>
  hogValidationError(
    attr === null ? { non_field_errors: [fieldError(detail)] } : { [attr]: fieldError(detail) },
  );

/** A serializer's errors answered raw (the invocations endpoint): `Response(serializer.errors, 400)`. */
export class RawValidationError extends ApiError {
  constructor(readonly tree: ErrorTree) {
    super(400, 'validation_error', 'invalid_input', 'Invalid input.');
  }

  override body(): Record<string, unknown> {
    return rawErrors(this.tree);
  }
}

/** The Python type DRF names in a message about a value of the wrong type ("got type \"str\""). */
export const pyType = (v: unknown) =>
  v === null
    ? 'NoneType'
    : Array.isArray(v)
      ? 'list'
      : typeof v === 'string'
        ? 'str'
        : typeof v === 'number'
          ? Number.isInteger(v)
            ? 'int'
            : 'float'
          : typeof v === 'boolean'
            ? 'bool'
            : 'dict';
