// What a failed request says, for the page: the gateway's coded errors as `CODE: message`, and a
// request the browser could not make (the gateway is down, or its CORS_ORIGINS does not list this
// page's origin: the browser tells the page nothing more) as such.
import { CombinedGraphQLErrors, ServerError } from '@apollo/client';

interface CodedError {
  message: string;
  extensions?: { code?: unknown };
}

const coded = (errors: readonly CodedError[]) =>
  errors.map((e) => `${String(e.extensions?.code ?? 'ERROR')}: ${e.message}`).join('\n');

export function messageOf(error: unknown, url?: string): string {
  if (CombinedGraphQLErrors.is(error)) return coded(error.errors);
  if (ServerError.is(error)) {
    try {
      const body = JSON.parse(error.bodyText) as { errors?: CodedError[] };
      if (body.errors?.length) return coded(body.errors);
    } catch {
      // Not the gateway's JSON: say the status.
    }
    return `HTTP ${error.statusCode}`;
  }
  if (error instanceof TypeError && url)
    return `Could not reach ${url}: is the gateway running, and does its CORS_ORIGINS list ${location.origin}?`;
  return error instanceof Error ? error.message : String(error);
}
