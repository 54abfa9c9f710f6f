// Warnings about an answer that stands but is not what the caller asked for (a write PostHog
// stored otherwise than asked): resolvers record them on the request's context and
// usePartialErrors (partial-errors.ts) adds them to the answer as `extensions.warnings`, an array
// of {code, message, path}; and a route the operation touched that PostHog marks as going
// (UPSTREAM_DEPRECATED: {code, message, route, deprecation, sunset, link}, no path). A warning
// never carries a key or a secret.

export interface AnswerWarning {
  /** What kind of difference, e.g. STORED_DISABLED. */
  code: string;
  /** What differs and the likely cause, in a sentence. */
  message: string;
  /** The response path of the field that differs; absent when about the operation (UPSTREAM_DEPRECATED). */
  path?: (string | number)[];
}

/** What an upstream answer said of its route's end (upstream/deprecation.ts). */
export interface RouteEnd {
  deprecation: string | null;
  sunset: string | null;
  link: string | null;
}

/** A route the operation touched is going: PostHog's answer said so (Deprecation, Sunset, Link). */
export interface UpstreamDeprecatedWarning extends AnswerWarning, RouteEnd {
  code: 'UPSTREAM_DEPRECATED';
  /** The route's template (`/api/projects/:project_id/hog_functions/:id/`), never a path with ids. */
  route: string;
}

/** The most routes one round of work warns of (the gateway calls fewer). */
const MAX_ROUTES = 64;

/**
 * The UPSTREAM_DEPRECATED warnings of one round of work (a request, or a live round): one per
 * route, the first answer's. usePartialErrors takes `pending` into the answer.
 */
export class RouteWarnings {
  readonly pending: AnswerWarning[] = [];
  private readonly routes = new Set<string>();

  add(route: string, end: RouteEnd): void {
    if (this.routes.has(route) || this.routes.size >= MAX_ROUTES) return;
    this.routes.add(route);
    const warning: UpstreamDeprecatedWarning = {
      code: 'UPSTREAM_DEPRECATED',
      message: deprecatedMessage(route, end),
      route,
      deprecation: end.deprecation,
      sunset: end.sunset,
      link: end.link,
    };
    this.pending.push(warning);
  }
}

function deprecatedMessage(route: string, end: RouteEnd): string {
  const since = end.deprecation ? ` since ${end.deprecation}` : '';
  const until = end.sunset ? `; it is to stop answering at ${end.sunset}` : '';
  const link = end.link ? ` (see ${end.link})` : '';
  return `PostHog marks ${route} as deprecated${since}${until}${link}. The operation was answered; the fields it serves may stop working.`;
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
