// One log line per process and upstream route the first time a page of it repeats an id
// (unique-entries.ts): the route's template only, never a path's ids, a key or an entry. The
// gateway hands its logger over as it starts (observability/wiring.ts); before that, or with none,
// nothing is logged and the route is not yet counted as told.
import { routeTemplate } from '../posthog/paths.ts';

interface WarnLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

let logger: WarnLogger | null = null;
const told = new Set<string>();

/** Where the repeated-id line goes: the gateway's logger. */
export function logRepeatedIdsTo(target: WarnLogger): void {
  logger = target;
}

/** Says, once per process and route, that a page of `path` repeated an id and the repeat was dropped. */
export function reportRepeatedIds(path: string | undefined): void {
  const route = path === undefined ? 'unknown' : routeTemplate(path);
  if (logger === null || told.has(route)) return;
  told.add(route);
  logger.warn(
    { event: 'upstream_duplicate_ids', route },
    'An upstream page repeated an id: each repeat was dropped, the first kept (said once per route)',
  );
}
