// A field whose value PostHog picks from a closed set in its code keeps its raw String, and beside
// it `<field>Value`, an enum of the set's values as this gateway knows them plus UNKNOWN. A value
// PostHog adds later reads UNKNOWN (never an error); the raw field still says what it is. Each enum
// lives beside its resource and cites the PostHog file@commit its values come from.
import { builder } from './builder.ts';

/** The enum value for UNKNOWN: a value the gateway does not know yet. */
export const UNKNOWN = 'UNKNOWN';

/** PostHog's value as a GraphQL enum name: `FailedRetryable` → FAILED_RETRYABLE, `every 5 minutes` → EVERY_5_MINUTES. */
export const enumName = (raw: string) =>
  raw
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();

export interface ClosedSet {
  /** The enum's name, e.g. BatchExportRunStatus. */
  name: string;
  /** What the enum is; the UNKNOWN rule is added to it. */
  description: string;
  /** The raw field it types, e.g. `BatchExportRun.status`. */
  rawField: string;
  /** PostHog's values, each with what it means. */
  values: readonly (readonly [raw: string, description: string])[];
}

/** The enum of a closed set, and the reading of a raw value into it (UNKNOWN when not in it). */
export function closedSetEnum(set: ClosedSet) {
  const byRaw = new Map(set.values.map(([raw]) => [raw, enumName(raw)]));
  const values: Record<string, { value: string; description: string }> = {};
  for (const [raw, description] of set.values)
    values[enumName(raw)] = { value: enumName(raw), description: `${raw}: ${description}` };
  values[UNKNOWN] = {
    value: UNKNOWN,
    description: `A value this gateway does not know yet (PostHog added it later): read \`${set.rawField}\` for it.`,
  };
  const ref = builder.enumType(set.name, {
    description: `${set.description} One value per value of \`${set.rawField}\` this gateway knows, UNKNOWN for any other.`,
    values,
  });
  const read = (raw: string | null | undefined): string =>
    (raw == null ? undefined : byRaw.get(raw)) ?? UNKNOWN;
  /** For a nullable raw field: null stays null. */
  const readNullable = (raw: string | null | undefined): string | null => (raw == null ? null : read(raw));
  return { ref, read, readNullable };
}

/** The description of a `<field>Value` field: the rule, once, in the same words everywhere. */
export const typedValueDescription = (rawField: string, enumType: string, nullable = false) =>
  `\`${rawField}\` as a ${enumType}: UNKNOWN for a value PostHog added later, which \`${rawField}\` still carries unchanged${nullable ? `; null when \`${rawField}\` is null` : ''}.`;
