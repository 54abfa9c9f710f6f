// How deep a request's variables and extensions may nest. JSON.parse takes any depth, but what
// reads the values afterwards recurses (input coercion, the JSON scalar, JSON.stringify): an
// unused variable nested 5,000 deep was an INTERNAL_SERVER_ERROR with a stack in the log.
import { badUserInput } from '../errors/codes.ts';

/** Deeper than any input of the schema needs (its JSON fields included) by a wide margin. */
export const MAX_INPUT_DEPTH = 32;

/** Whether `value` nests objects or arrays deeper than `max`; iterative, so any depth is safe. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

export function checkInputDepth(what: string, value: unknown): void {
  if (nestsDeeperThan(value, MAX_INPUT_DEPTH)) {
    throw badUserInput(`\`${what}\` nests deeper than ${MAX_INPUT_DEPTH} levels.`, { field: what });
  }
}
