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
    edgesFieldOptions: {
      nullable: { list: false, items: false },
      description: 'The items of this page, each with its cursor.',
    },
    nodeFieldOptions: { nullable: false, description: 'The item.' },
    cursorFieldOptions: { description: 'Pass as `after` (or `before`) to continue from this item.' },
    pageInfoFieldOptions: { description: 'Where this page sits in the whole list.' },
    nodeTypeOptions: { description: 'An object with a global id that `node` and `nodes` can refetch.' },
    idFieldOptions: { description: 'The global id: opaque, stable, accepted by `node` and `nodes`.' },
    pageInfoTypeOptions: { description: 'Relay page information.' },
    hasNextPageFieldOptions: { description: 'Whether more items follow this page.' },
    hasPreviousPageFieldOptions: { description: 'Whether items precede this page.' },
    startCursorFieldOptions: { description: 'The cursor of the first item of this page.' },
    endCursorFieldOptions: { description: 'The cursor of the last item of this page.' },
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

builder.queryType({ description: 'The entry points for reading destination configs and the activity log.' });
builder.mutationType({ description: 'Changes to destination configs and activity notifications.' });
