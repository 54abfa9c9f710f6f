// Connection cursors are opaque to callers but not secret. A cursor carries no authority: it only
// selects a position in a list the caller's own key may read, and an upstream cursor inside it
// reaches the upstream only URL-encoded, as the `cursor` parameter. So cursors are not signed
// (they survive restarts and work across replicas with no configuration), but they are decoded
// strictly: the canonical base64url of a JSON array whose first element names the list it belongs
// to. Anything else, or a cursor of another list, is BAD_USER_INPUT before any upstream call.
import { badUserInput } from '../../errors/codes.ts';

export type CursorField = string | number | null;

const MAX_CURSOR_LENGTH = 4_096;

export function encodeCursor(list: string, fields: readonly CursorField[]): string {
  return Buffer.from(JSON.stringify([list, ...fields]), 'utf8').toString('base64url');
}

export const invalidCursor = (argument: string, why = 'is not a cursor of this connection') =>
  badUserInput(`\`${argument}\` ${why}; pass a cursor this field returned.`, { field: argument });

/**
 * The fields of a cursor of `list`. `list` is compared whole, so a cursor of another connection,
 * project or filter set fails here; the caller checks the fields' own shapes.
 */
export function decodeCursor(
  cursor: string,
  list: string,
  argument: string,
  /** How many fields a cursor of this list has: one more (or fewer) is not one of its cursors. */
  fieldCount?: number,
): CursorField[] {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw invalidCursor(argument);
  }
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  // Only the canonical encoding is accepted: no second spelling of the same cursor.
  if (Buffer.from(text, 'utf8').toString('base64url') !== cursor) throw invalidCursor(argument);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidCursor(argument);
  }
  // One spelling: exactly the text encodeCursor writes (no `1e3` for 1000, no added spaces).
  if (JSON.stringify(parsed) !== text) throw invalidCursor(argument);
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'string') throw invalidCursor(argument);
  if (parsed[0] !== list)
    throw invalidCursor(argument, 'is a cursor of another list (other project, filters, search or order)');
  const fields = parsed.slice(1);
  if (fieldCount !== undefined && fields.length !== fieldCount) throw invalidCursor(argument);
  if (!fields.every((f) => f === null || typeof f === 'string' || typeof f === 'number')) {
    throw invalidCursor(argument);
  }
  return fields as CursorField[];
}

/** A non-negative integer field (an offset, an index), or the cursor is invalid. */
export function indexField(value: CursorField | undefined, argument: string, max = 1_000_000_000): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > max) {
    throw invalidCursor(argument);
  }
  return value;
}
