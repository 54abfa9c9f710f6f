// Answers served from what the gateway kept because PostHog could not answer (429, 5xx, no answer
// in time: upstream/kept/answers.ts): usePartialErrors (partial-errors.ts) adds them to the answer
// as `extensions.stale`, an array of {route, age}: the route template the fields were read through
// and how many seconds old the answer served was (the oldest, when one route served several).

export interface StaleEntry {
  /** The route's template (`/api/projects/:project_id/hog_functions/`), never a path with ids. */
  route: string;
  /** Seconds since the answer served was read from PostHog. */
  age: number;
}

/** The most routes one round of work reports (the gateway calls fewer). */
const MAX_ROUTES = 64;

/** The stale answers of one round of work (a request, or a live round). */
export class StaleAnswers {
  private readonly byRoute = new Map<string, StaleEntry>();
  private taken = 0;

  add(route: string, age: number): void {
    const entry = this.byRoute.get(route);
    if (entry) entry.age = Math.max(entry.age, age);
    else if (this.byRoute.size < MAX_ROUTES) this.byRoute.set(route, { route, age });
  }

  /** The entries added since the last call. */
  take(): StaleEntry[] {
    const all = [...this.byRoute.values()];
    const fresh = all.slice(this.taken);
    this.taken = all.length;
    return fresh.map((entry) => ({ ...entry }));
  }
}
