// Global ids: `node` and `nodes` refetch a Project or a DestinationConfig by its `id`. Each id is
// decoded on its own, so in `nodes` a bad id nulls only its own item (with BAD_USER_INPUT).
import { type FragmentDefinitionNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';
import type { GatewayContext } from '../context.ts';
import { isOutOfReach } from '../upstream/errors.ts';
import { builder } from './builder.ts';
import { decodeGlobalId, type GlobalId } from './global-id.ts';

/** Below this many configs of one project, one retrieve each beats reading list pages. */
const LIST_PREFETCH_MIN_IDS = 3;
const LIST_PAGE_SIZE = 100;
/** Fields a list answer may not carry (PostHog leaves plugin_info out of lists). */
const FIELDS_LISTS_LACK = new Set(['pluginInfo']);

/** The object behind an id, or null when the caller's key cannot reach it (one call at most). */
async function loadNode(ctx: GatewayContext, id: GlobalId) {
  try {
    if (id.typename === 'Project') return await ctx.loaders.project.load(id.projectId);
    return await ctx.loaders.config.load({ projectId: id.projectId, id: id.databaseId });
  } catch (error) {
    if (isOutOfReach(error)) return null;
    throw error;
  }
}

function selects(
  selectionSet: SelectionSetNode | undefined,
  names: Set<string>,
  fragments: Record<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): boolean {
  for (const selection of selectionSet?.selections ?? []) {
    if (
      selection.kind === Kind.FIELD &&
      (names.has(selection.name.value) || selects(selection.selectionSet, names, fragments, seen))
    ) {
      return true;
    }
    if (selection.kind === Kind.INLINE_FRAGMENT && selects(selection.selectionSet, names, fragments, seen))
      return true;
    if (selection.kind === Kind.FRAGMENT_SPREAD && !seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      if (selects(fragments[selection.name.value]?.selectionSet, names, fragments, seen)) return true;
    }
  }
  return false;
}

/**
 * Many configs of one project cost fewer calls as list pages (100 a page) than as one
 * retrieve each. Read the first page; read the rest only when fewer pages remain than ids
 * still missing. What the pages do not hold (e.g. deleted configs) is then retrieved alone.
 */
async function prefetchFromLists(ctx: GatewayContext, projectId: string, ids: Set<number>): Promise<void> {
  // Lists this request already holds or is reading count first.
  await ctx.loaders.listsSettled(projectId);
  const unknown = [...ids].filter((id) => !ctx.loaders.isListed({ projectId, id }));
  if (unknown.length < LIST_PREFETCH_MIN_IDS) return;
  const first = await ctx.loaders.listConfigs({ projectId, limit: LIST_PAGE_SIZE, offset: 0 });
  const missing = unknown.filter((id) => !first.results.some((c) => c.databaseId === id));
  const pagesLeft = Math.max(0, Math.ceil((first.count - LIST_PAGE_SIZE) / LIST_PAGE_SIZE));
  if (missing.length === 0 || pagesLeft >= missing.length) return;
  await Promise.all(
    Array.from({ length: pagesLeft }, (_, i) =>
      ctx.loaders.listConfigs({ projectId, limit: LIST_PAGE_SIZE, offset: (i + 1) * LIST_PAGE_SIZE }),
    ),
  );
}

async function prefetchConfigs(ctx: GatewayContext, ids: (GlobalId | Error)[], info: GraphQLResolveInfo) {
  if (selects(info.fieldNodes[0]?.selectionSet, FIELDS_LISTS_LACK, info.fragments)) return;
  const byProject = new Map<string, Set<number>>();
  for (const id of ids) {
    if (id instanceof Error || id.typename !== 'DestinationConfig') continue;
    byProject.set(id.projectId, (byProject.get(id.projectId) ?? new Set()).add(id.databaseId));
  }
  await Promise.all(
    [...byProject]
      .filter(([, configIds]) => configIds.size >= LIST_PREFETCH_MIN_IDS)
      // A failed prefetch is not an answer: each id is then loaded, and fails, on its own.
      .map(([projectId, configIds]) => prefetchFromLists(ctx, projectId, configIds).catch(() => undefined)),
  );
}

builder.queryFields((t) => ({
  node: t.field({
    type: builder.nodeInterfaceRef(),
    nullable: true,
    description:
      'A Project or DestinationConfig by its global id; null when it does not exist or the caller’s key cannot reach it.',
    args: { id: t.arg.id({ required: true, description: 'A global id, as returned in `id`.' }) },
    resolve: (_root, args, ctx) => loadNode(ctx, decodeGlobalId(args.id)),
  }),
  nodes: t.field({
    type: [builder.nodeInterfaceRef()],
    nullable: { list: false, items: true },
    description:
      'Several objects by global id, in the order asked; each missing or bad id gives null on its own.',
    args: { ids: t.arg.idList({ required: true, description: 'Global ids, as returned in `id`.' }) },
    resolve: async (_root, args, ctx, info) => {
      const decoded = args.ids.map((id, index) => {
        try {
          return decodeGlobalId(id, `ids[${index}]`);
        } catch (error) {
          return error as Error;
        }
      });
      await prefetchConfigs(ctx, decoded, info);
      return decoded.map((id) => (id instanceof Error ? Promise.reject(id) : loadNode(ctx, id)));
    },
  }),
}));
