// The SchemaBuilder and its plugins. It defines no types: each resource file adds its own.
import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import type { GatewayContext } from '../context.ts';
import { encodeGlobalId } from './global-id.ts';

export const builder = new SchemaBuilder<{
  Context: GatewayContext;
  Scalars: {
    DateTime: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
    ID: { Input: string; Output: string };
  };
  DefaultEdgesNullability: { list: false; items: false };
  DefaultNodeNullability: false;
  DefaultFieldNullability: false;
  // Offset-based connections also say how many items the upstream lists.
  Connection: { totalCount?: number };
}>({
  plugins: [RelayPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    // node and nodes are defined in node.ts, so that each id is decoded (and may fail) on its own.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    // Each connection and edge names its own items (edgesField / nodeField where it is made);
    // these are the fallbacks, and what every connection shares: its cursors and its pageInfo.
    edgesFieldOptions: {
      nullable: { list: false, items: false },
      description: 'This page’s items in list order, each with the cursor that resumes after it.',
    },
    nodeFieldOptions: { nullable: false, description: 'The object this edge of a list leads to.' },
    cursorFieldOptions: {
      description:
        'An opaque string: pass it as `after` for the items that follow this one, or as `before` for those that precede it. It is valid only for the list (and the filters) that gave it; any other list answers BAD_USER_INPUT.',
    },
    pageInfoFieldOptions: {
      description:
        'Whether more items follow or precede this page, and the cursors of its first and last items to page on with.',
    },
    nodeTypeOptions: {
      description:
        'An object with a global id (Project, DestinationConfig, HogFunction, HogFunctionRevision, BatchExport, BatchExportRun or BatchExportBackfill): `node(id:)` and `nodes(ids:)` fetch it again by that id.',
    },
    idFieldOptions: {
      description:
        'A global id: an opaque base64 string naming the type, the numeric project and the upstream id. Stable across requests and keys; pass it to `node`, `nodes` or a mutation’s `id`.',
    },
    pageInfoTypeOptions: {
      description:
        'Where a page sits in its list (Relay’s PageInfo): whether there is more, and cursors to get it.',
    },
    hasNextPageFieldOptions: {
      description: 'True when items follow this page: ask again with `after: endCursor` to read them.',
    },
    hasPreviousPageFieldOptions: {
      description: 'True when items precede this page: ask again with `before: startCursor` to read them.',
    },
    startCursorFieldOptions: {
      description: 'The cursor of this page’s first item, to pass as `before`; null on an empty page.',
    },
    endCursorFieldOptions: {
      description: 'The cursor of this page’s last item, to pass as `after`; null on an empty page.',
    },
    firstArgOptions: {
      description: 'How many items from the start of the window (default 20, at most 100).',
    },
    afterArgOptions: { description: 'Start after the item with this cursor.' },
    lastArgOptions: { description: 'How many items from the end of the window (at most 100).' },
    beforeArgOptions: { description: 'End before the item with this cursor.' },
    encodeGlobalID: (typename, id) => encodeGlobalId(typename, String(id)),
    decodeGlobalID: () => {
      throw new Error('global ids are decoded by global-id.ts');
    },
  },
});

builder.queryType({
  description:
    'Reads PostHog through your personal API key: `projects` and `project(projectId:)` lead to a project’s hog functions (and each hog function revision), hog function templates, batch exports (each batch export run and batch export backfill), destination configs (legacy plugin configs), destinations (hog functions of the destination kinds, the configs and the batch exports, merged into one list) and activity log; `node` and `nodes` fetch an object again by its global id. A field that calls PostHog ends its description with the line "Scopes: …": the personal API key scopes it needs (all of them: docs/scopes.md).',
});
builder.mutationType({
  description:
    'Writes through your personal API key: hog functions (create, update, delete, test, rearrange transformations; preview, publish or discard a draft; restore a hog function revision), batch exports (create, update, delete, pause, unpause; create or cancel a batch export backfill; retry or cancel a batch export run) and destination configs (legacy plugin configs: update and delete; create, job runs and rearrange are retired by PostHog), and the retired activity notification bookmark. Each ends with the line naming the scopes it needs; a `:write` scope also grants `:read`.',
});
