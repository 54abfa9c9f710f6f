// Global ids: `node` and `nodes` refetch any Node (a Project, a DestinationConfig, a HogFunction
// or one of its revisions, a BatchExport, its runs and backfills) by its `id`. Each id is
// decoded on its own, so in `nodes` a bad id nulls only its own item (with BAD_USER_INPUT).
import type { GatewayContext } from '../context.ts';
import { isOutOfReach } from '../errors/codes.ts';
import { builder } from './builder.ts';
import { type Args, priced } from './cost/price.ts';
import { decodeGlobalId, type GlobalId, loadNodeOf } from './global-id.ts';
import { listAnswersSuffice } from './selection.ts';

/** How many ids `nodes` is asked for: one read each. */
const idsOf = (args: Args) => (Array.isArray(args.ids) ? args.ids.length : 1);

/**
 * The object behind an id, or null when the caller's key cannot reach it (one call at most).
 * `listFieldsSuffice`: several configs of one project may be read from list pages (Configs.load).
 */
async function loadNode(ctx: GatewayContext, id: GlobalId, listFieldsSuffice = false) {
  try {
    return await loadNodeOf(ctx, id, listFieldsSuffice);
  } catch (error) {
    if (isOutOfReach(error)) return null;
    throw error;
  }
}

builder.queryFields((t) => ({
  node: t.field({
    type: builder.nodeInterfaceRef(),
    nullable: true,
    description:
      'A Project, DestinationConfig, HogFunction, HogFunctionRevision, BatchExport, BatchExportRun or BatchExportBackfill by its global id (one upstream call); null when it does not exist or belongs to a project the key cannot reach. The scope needed depends on the id’s type: project:read for a Project (GET /api/projects/:id/), plugin:read for a DestinationConfig (GET …/pipeline_destination_configs/:id/), hog_function:read for a HogFunction (GET …/hog_functions/:id/) or a HogFunctionRevision (GET …/hog_functions/:id/revisions/:version/), batch_export:read for a batch export, its runs and backfills (GET …/batch_exports/:id/…); a key without it gets FORBIDDEN naming the scope. A malformed id is BAD_USER_INPUT.',
    args: { id: t.arg.id({ required: true, description: 'A global id, as returned in `id`.' }) },
    extensions: priced({ calls: 1 }),
    resolve: (_root, args, ctx) => loadNode(ctx, decodeGlobalId(args.id)),
  }),
  nodes: t.field({
    type: [builder.nodeInterfaceRef()],
    nullable: { list: false, items: true },
    description:
      'Several objects by global id, in the order asked; each missing or unreachable id gives null, and a malformed one (or one whose scope the key lacks) null with its own error, without failing the others. Each id needs the read scope of its type, as for `node`: project:read, plugin:read, hog_function:read or batch_export:read.',
    args: { ids: t.arg.idList({ required: true, description: 'Global ids, as returned in `id`.' }) },
    extensions: priced({ calls: ({ args }) => idsOf(args), worst: 1, list: { of: idsOf } }),
    // One promise of the whole list, a failed item standing as its Error: graphql-jit pushes a
    // rejected item's null onto the end of the list instead of setting it at its index (a bad
    // last id made the list one item short); both executors read an Error item as that item's
    // error (the differential test).
    resolve: (_root, args, ctx, info) => {
      const listFieldsSuffice = listAnswersSuffice(info);
      return Promise.all(
        args.ids.map(async (id, index) => {
          try {
            return await loadNode(ctx, decodeGlobalId(id, `ids[${index}]`), listFieldsSuffice);
          } catch (error) {
            return error as Error;
          }
        }),
      );
    },
  }),
}));
