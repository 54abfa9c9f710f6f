// Global object ids: base64 of `<typename>:<parts>`, the parts joined by `:` as each Node type
// registers them in its resource's node.ts (registerNodeType): `Project:<projectId>`,
// `DestinationConfig:<projectId>:<id>`, `HogFunction:<projectId>:<uuid>`, … Opaque to callers;
// decoded strictly (canonical base64, a registered type, valid parts), so a malformed, tampered
// or foreign id is BAD_USER_INPUT and never reaches the upstream.
import type { GatewayContext } from '../context.ts';
import { badUserInput } from '../errors/codes.ts';
import { refusalOf } from './scope-gate.ts';
import type { Scope } from './scopes.ts';

/**
 * Each Node type's decoded id, by typename: each resource's node.ts adds its own to this
 * interface (`declare module`) where it calls registerNodeType.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging.
export interface NodeIds {}

export type GlobalId = { [T in keyof NodeIds]: { typename: T } & NodeIds[T] }[keyof NodeIds];
type Typename = GlobalId['typename'];
type IdOf<T extends Typename> = Extract<GlobalId, { typename: T }>;

/** A Node type: how its id is written after `<typename>:`, and how it is read again. */
export interface NodeType<T extends Typename> {
  typename: T;
  /** The scope its read needs: a key whose known grant lacks it is refused before the call. */
  scope: Scope;
  /** The id's parts after the typename, each a pattern (no groups), joined by `:`. */
  parts: readonly string[];
  /** The id of the parts as written; null when they name none. */
  read: (parts: string[]) => NodeIds[T] | null;
  /** The object of the id (`node`, `nodes`); `listFieldsSuffice`: it may be read from list pages. */
  load: (ctx: GatewayContext, id: IdOf<T>, listFieldsSuffice: boolean) => Promise<unknown>;
}

interface Registered {
  regex: RegExp;
  type: NodeType<Typename>;
}

const REGISTRY = new Map<string, Registered>();

/** Registers a Node type's id (from its resource's node.ts); each typename once. */
export function registerNodeType<T extends Typename>(type: NodeType<T>): void {
  if (REGISTRY.has(type.typename)) throw new Error(`${type.typename} is registered twice`);
  const regex = new RegExp(`^${type.typename}:${type.parts.map((part) => `(${part})`).join(':')}$`);
  REGISTRY.set(type.typename, { regex, type: type as unknown as NodeType<Typename> });
}

/**
 * The registered Node types' names, in the order they were registered, each followed by those
 * it prefixes (HogFunction, HogFunctionRevision).
 */
export function nodeTypenames(): string[] {
  const names = [...REGISTRY.keys()];
  const roots = names.filter((name) => !names.some((other) => other !== name && name.startsWith(other)));
  return roots.flatMap((root) => [root, ...names.filter((name) => name !== root && name.startsWith(root))]);
}

/**
 * The object behind a decoded id, as its type loads it; FORBIDDEN naming the scope (or the
 * project) without a call when the key's known grant may not read it (scope-gate.ts).
 */
export async function loadNodeOf(ctx: GatewayContext, id: GlobalId, listFieldsSuffice: boolean) {
  const { type } = REGISTRY.get(id.typename)!;
  const grant = await ctx.loaders.keyGrant.grant();
  const refusal = grant && refusalOf(grant, [type.scope], id.projectId, 'this object');
  if (refusal) throw refusal;
  return type.load(ctx, id, listFieldsSuffice);
}

const MAX_ID_LENGTH = 200;

export const encodeGlobalId = (typename: string, localId: string) =>
  typename === 'DestinationConfig' && localId.length <= SHORT
    ? CONFIG_PREFIX + shortBase64(localId)
    : Buffer.from(`${typename}:${localId}`, 'utf8').toString('base64');

/**
 * A config's id, by hand: a page of 100 configs encodes 100, and Buffer.from(…).toString
 * ('base64') took 380 ns an id against 140 for the prefix's base64 and this for the rest
 * (`<project>:<id>`); the ids were 3 % of the 100-config page's CPU (--cpu-prof). Longer text
 * (a hog function's uuid) is faster through Buffer.
 */
const SHORT = 24;
// `DestinationConfig:` is 18 bytes, whole groups of three: its base64 starts every config's id.
const CONFIG_PREFIX = Buffer.from('DestinationConfig:').toString('base64');
const BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** base64 of short text as Buffer writes its UTF-8: by hand when it is ASCII, as ids are. */
export function shortBase64(text: string): string {
  const length = text.length;
  for (let i = 0; i < length; i++) {
    if (text.charCodeAt(i) > 0x7f) return Buffer.from(text, 'utf8').toString('base64');
  }
  let out = '';
  let i = 0;
  for (; i + 2 < length; i += 3) {
    const bits = (text.charCodeAt(i) << 16) | (text.charCodeAt(i + 1) << 8) | text.charCodeAt(i + 2);
    out += digit(bits >> 18) + digit(bits >> 12) + digit(bits >> 6) + digit(bits);
  }
  if (i + 1 === length) {
    const bits = text.charCodeAt(i) << 16;
    out += `${digit(bits >> 18)}${digit(bits >> 12)}==`;
  } else if (i + 2 === length) {
    const bits = (text.charCodeAt(i) << 16) | (text.charCodeAt(i + 1) << 8);
    out += `${digit(bits >> 18)}${digit(bits >> 12)}${digit(bits >> 6)}=`;
  }
  return out;
}

const digit = (bits: number) => BASE64_DIGITS[bits & 63]!;

export const projectGlobalId = (projectId: string) => encodeGlobalId('Project', projectId);
export const configGlobalId = (projectId: string, databaseId: number) =>
  encodeGlobalId('DestinationConfig', `${projectId}:${databaseId}`);
export const hogFunctionGlobalId = (projectId: string, uuid: string) =>
  encodeGlobalId('HogFunction', `${projectId}:${uuid}`);

export const batchExportGlobalId = (projectId: string, uuid: string) =>
  encodeGlobalId('BatchExport', `${projectId}:${uuid}`);
export const exportChildGlobalId = (
  typename: 'BatchExportRun' | 'BatchExportBackfill',
  projectId: string,
  exportUuid: string,
  uuid: string,
) => encodeGlobalId(typename, `${projectId}:${exportUuid}:${uuid}`);

/** A list of names as a sentence: `a Project, a DestinationConfig or a HogFunction`. */
const oneOf = (names: string[]) =>
  names.length < 2
    ? names.map((name) => `a ${name}`).join('')
    : `${names
        .slice(0, -1)
        .map((name) => `a ${name}`)
        .join(', ')} or a ${names.at(-1)}`;

export function decodeGlobalId(id: string, field = 'id'): GlobalId {
  const invalid = () =>
    badUserInput(`${field} is not a global id of this API; use the \`id\` of ${oneOf(nodeTypenames())}.`, {
      field,
    });
  if (id.length > MAX_ID_LENGTH || !/^[A-Za-z0-9+/]+={0,2}$/.test(id)) throw invalid();
  const text = Buffer.from(id, 'base64').toString('utf8');
  // Only the canonical encoding is accepted: no second spelling of the same id.
  if (Buffer.from(text, 'utf8').toString('base64') !== id) throw invalid();
  // One spelling: a project id is written without leading zeros (as the gateway writes it).
  if (/^0\d/.test(text.split(':')[1] ?? '')) throw invalid();
  const registered = REGISTRY.get(text.slice(0, text.indexOf(':')));
  const parts = registered?.regex.exec(text);
  const read = parts && registered!.type.read(parts.slice(1));
  if (!read) throw invalid();
  return { typename: registered!.type.typename, ...read } as GlobalId;
}

export const decodeConfigGlobalId = (id: string, field = 'id') =>
  decodeGlobalIdOf('DestinationConfig', id, field);

export const decodeHogFunctionGlobalId = (id: string, field = 'id') =>
  decodeGlobalIdOf('HogFunction', id, field);

/** A global id that must be of `typename`: BAD_USER_INPUT naming the type it is otherwise. */
export function decodeGlobalIdOf<T extends Typename>(typename: T, id: string, field = 'id') {
  const decoded = decodeGlobalId(id, field);
  if (decoded.typename !== typename) {
    throw badUserInput(`${field} must be the id of a ${typename}, not of a ${decoded.typename}.`, { field });
  }
  return decoded as IdOf<T>;
}
