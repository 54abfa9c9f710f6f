// `npm run schema:breaking`: the schema cannot break clients by accident. It compares schema.graphql
// with the version before its latest change (or with HEAD's, when the working copy changed it),
// using graphql-js's findBreakingChanges; a breaking change fails unless CHANGELOG.md names it
// (its coordinate, e.g. `Project.name`). A value added to an enum fails the same way unless named
// (`BatchExportRunStatus.PAUSED`): a client's exhaustive switch meets a value it has no case for.
// Deprecations are not breaks. CI runs it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  type BreakingChange,
  buildSchema,
  type DangerousChange,
  DangerousChangeType,
  findBreakingChanges,
  findDangerousChanges,
} from 'graphql';

/** graphql-js's words for a change to an enum's values: "<VALUE> was added to enum type <Enum>." */
const ENUM_VALUE_CHANGE = /^(\w+) was (?:added to|removed from) enum type (\w+)\.$/;

/** The coordinate a change must be named by: `Type.field`, or `Enum.VALUE` for an enum value. */
const coordinateOf = (description: string) => {
  const enumValue = ENUM_VALUE_CHANGE.exec(description);
  return enumValue ? `${enumValue[2]}.${enumValue[1]}` : description.split(' ')[0]!.replace(/\.$/, '');
};

/** The changes from `before` to `after` that `changelog` must name and does not: breaking ones, and enum values added. */
export function unlistedBreakingChanges(before: string, after: string, changelog: string): string[] {
  const [old, current] = [buildSchema(before), buildSchema(after)];
  const changes: (BreakingChange | DangerousChange)[] = [
    ...findBreakingChanges(old, current),
    ...findDangerousChanges(old, current).filter((c) => c.type === DangerousChangeType.VALUE_ADDED_TO_ENUM),
  ];
  return changes
    .map((change) => change.description)
    .filter((description) => !changelog.includes(`\`${coordinateOf(description)}\``));
}

const git = (args: string[], cwd: string) => execFileSync('git', args, { cwd, encoding: 'utf8' });

/** The committed schema.graphql to compare with: HEAD's if the working copy differs, else the one before its latest change. */
export function previousSchema(root: string, current: string): string | null {
  const atHead = (() => {
    try {
      return git(['show', 'HEAD:schema.graphql'], root);
    } catch {
      return null;
    }
  })();
  if (atHead !== null && atHead !== current) return atHead;
  const changes = git(['log', '--format=%H', '--', 'schema.graphql'], root).split('\n').filter(Boolean);
  if (changes.length < 2) return null; // the first version: nothing to break
  return git(['show', `${changes[0]}^:schema.graphql`], root);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = new URL('..', import.meta.url).pathname;
  const current = readFileSync(`${root}schema.graphql`, 'utf8');
  const before = previousSchema(root, current);
  const unlisted =
    before === null
      ? []
      : unlistedBreakingChanges(before, current, readFileSync(`${root}CHANGELOG.md`, 'utf8'));
  if (unlisted.length > 0) {
    console.error(
      `schema.graphql breaks clients or adds enum values; list each change in CHANGELOG.md (its coordinate in backticks, e.g. \`Project.name\` or \`Enum.VALUE\`):\n  ${unlisted.join('\n  ')}`,
    );
    process.exit(1);
  }
  console.log(
    before === null
      ? 'schema.graphql: no earlier version to compare with'
      : 'schema.graphql: no unlisted breaking change',
  );
}
