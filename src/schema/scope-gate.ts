// Fields a key may not read fail before their call. Each field whose description ends with a
// scopes line (scopes.ts) first asks the request's key's grant (loaders/key-grants.ts: what
// GET /api/personal_api_keys/@current/ answered of the key, read once per key): a key that holds
// none of the field's scopes, or is limited to other projects than the field's, gets FORBIDDEN
// naming the scope (or the project), and the field's resolver, with its upstream calls, never
// runs; the rest of the answer is served. An unknown grant (the setting off, a credential that is
// not a personal key, an upstream without the route) changes nothing: the field calls as before.
//
// A field of several scopes (a merged list) is refused only when the key holds none of them: each
// part it may read is served, the others fail as partial errors (context.ts, partialErrors), and
// the field asks refusalOf of each part itself so that a part the key may not read is not called.
//
// A subscription is gated at its `subscribe`: refused, it ends at once with the refusal and no
// poller starts. One whose scopes are each of a part the subscriber picks (extensions
// `scopesOfParts`, destinationHealthChanged's kinds) asks refusalOf of the parts it was asked itself.
import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema, isObjectType } from 'graphql';
import { codedError } from '../errors/codes.ts';
import type { Loaders } from '../loaders/index.ts';
import { grants } from '../loaders/key-grants.ts';
import type { KeyGrant } from '../upstream/keys/grants.ts';
import { scopesOf } from './scopes.ts';

/**
 * A field's `extensions.scopeGate`: whether it calls PostHog for this parent (a project's `id`
 * does only for "@current"); the gate applies only then. Without it: always.
 */
export type ScopeGate = (source: unknown) => boolean;

type Resolver = GraphQLFieldResolver<unknown, { loaders: Loaders }, Record<string, unknown>>;

/** The project a field is about: its `projectId` argument or input, else its parent's. */
function projectIdOf(source: unknown, args: Record<string, unknown>): string | null {
  const input = args.input as { projectId?: unknown } | undefined;
  const given = args.projectId ?? input?.projectId;
  if (typeof given === 'string') return given;
  const parent =
    source && typeof source === 'object' ? (source as { projectId?: unknown }).projectId : undefined;
  return typeof parent === 'string' ? parent : null;
}

/**
 * Why the key may not have the field asked of PostHog; null: it may. `subject`: what was not
 * asked, as the message names it (a part of a merged list names itself).
 */
export function refusalOf(
  grant: KeyGrant,
  scopes: readonly string[],
  projectId: string | null,
  subject = 'this field',
) {
  if (!scopes.some((scope) => grants(grant, scope))) {
    const scope = scopes.find((s) => !grants(grant, s))!;
    return codedError(
      'FORBIDDEN',
      `The API key lacks the scope ${scope}, so ${subject} was not asked of PostHog. Add the scope to the key in PostHog (Settings → Personal API keys); the gateway sees it within KEY_SCOPES_REFRESH_MS.`,
      { requiredScope: scope, scope },
    );
  }
  const limited = grant.projectIds;
  if (projectId !== null && /^\d+$/.test(projectId) && limited.length > 0 && !limited.includes(projectId)) {
    return codedError(
      'FORBIDDEN',
      `The API key is limited to other projects than ${projectId}, so ${subject} was not asked of PostHog.`,
      { projectId, reason: 'PROJECT_NOT_IN_KEY' },
    );
  }
  return null;
}

function gated(resolve: Resolver, scopes: readonly string[], applies: ScopeGate | undefined): Resolver {
  return (source, args, ctx, info) => {
    if (applies && !applies(source)) return resolve(source, args, ctx, info);
    const go = (grant: KeyGrant | null) => {
      const refusal = grant && refusalOf(grant, scopes, projectIdOf(source, args));
      if (refusal) throw refusal;
      return resolve(source, args, ctx, info);
    };
    const grant = ctx.loaders.keyGrant.grant();
    return grant instanceof Promise ? grant.then(go) : go(grant);
  };
}

/**
 * Puts the gate before every resolver of a field with a scopes line, and before a subscription's
 * `subscribe` (its resolver only maps events); in place.
 */
export function gateScopes(schema: GraphQLSchema): GraphQLSchema {
  const subscription = schema.getSubscriptionType();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const scopes = scopesOf(field.description);
      if (scopes.length === 0) continue;
      const applies = field.extensions?.scopeGate as ScopeGate | undefined;
      if (type === subscription) {
        if (field.subscribe && field.extensions?.scopesOfParts !== true)
          field.subscribe = gated(field.subscribe as Resolver, scopes, applies) as typeof field.subscribe;
        continue;
      }
      field.resolve = gated(
        (field.resolve ?? defaultFieldResolver) as Resolver,
        scopes,
        applies,
      ) as typeof field.resolve;
    }
  }
  return schema;
}
