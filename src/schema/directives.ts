// The directives of incremental and live answers, in the schema so that GraphiQL, the Relay
// compiler and codegen see them: @defer and @stream (as the incremental-delivery RFC and
// @graphql-tools define them; yoga's defer-stream plugin executes them) and @live (live-queries.ts).
import {
  DirectiveLocation,
  GraphQLBoolean,
  GraphQLDirective,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  specifiedDirectives,
} from 'graphql';

export const GraphQLDeferDirective = new GraphQLDirective({
  name: 'defer',
  description: 'Deliver this fragment after the rest of the answer (multipart/mixed or SSE).',
  locations: [DirectiveLocation.FRAGMENT_SPREAD, DirectiveLocation.INLINE_FRAGMENT],
  args: {
    if: {
      type: new GraphQLNonNull(GraphQLBoolean),
      defaultValue: true,
      description: 'Defer only when true.',
    },
    label: { type: GraphQLString, description: 'Names the deferred part in the answer.' },
  },
});

export const GraphQLStreamDirective = new GraphQLDirective({
  name: 'stream',
  description: 'Deliver the items of this list one by one after the first `initialCount`.',
  locations: [DirectiveLocation.FIELD],
  args: {
    if: {
      type: new GraphQLNonNull(GraphQLBoolean),
      defaultValue: true,
      description: 'Stream only when true.',
    },
    label: { type: GraphQLString, description: 'Names the streamed parts in the answer.' },
    initialCount: { type: GraphQLInt, defaultValue: 0, description: 'Items sent with the first part.' },
  },
});

export const GraphQLLiveDirective = new GraphQLDirective({
  name: 'live',
  description:
    'Keep this query’s answer current: it is pushed again (over SSE or graphql-ws) when a write through the gateway with your key may have changed it, or at most every LIVE_QUERY_POLL_MS.',
  locations: [DirectiveLocation.QUERY],
  args: {
    if: { type: GraphQLBoolean, defaultValue: true, description: 'Live only when true.' },
  },
});

// The price of a field as the IBM GraphQL cost directives state it (ibm.github.io/graphql-specs,
// cost-spec.html): schema.graphql shows each field's declared price (cost/sdl.ts).
export const GraphQLCostDirective = new GraphQLDirective({
  name: 'cost',
  description:
    'The most upstream (PostHog) requests this field makes itself, what is under it aside (the IBM GraphQL cost directives).',
  locations: [
    DirectiveLocation.ARGUMENT_DEFINITION,
    DirectiveLocation.ENUM,
    DirectiveLocation.FIELD_DEFINITION,
    DirectiveLocation.INPUT_FIELD_DEFINITION,
    DirectiveLocation.OBJECT,
    DirectiveLocation.SCALAR,
  ],
  args: {
    weight: { type: new GraphQLNonNull(GraphQLString), description: 'The requests, as a number.' },
  },
});

const stringList = new GraphQLList(new GraphQLNonNull(GraphQLString));

export const GraphQLListSizeDirective = new GraphQLDirective({
  name: 'listSize',
  description:
    'How many items this list field returns, for its cost: each one counts what is selected under it (the IBM GraphQL cost directives).',
  locations: [DirectiveLocation.FIELD_DEFINITION],
  args: {
    assumedSize: { type: GraphQLInt, description: 'Its size when no slicing argument says it.' },
    slicingArguments: { type: stringList, description: 'The arguments that set its size.' },
    sizedFields: { type: stringList, description: 'The fields of its answer that hold the items.' },
    requireOneSlicingArgument: {
      type: GraphQLBoolean,
      defaultValue: true,
      description: 'Whether exactly one slicing argument must be given.',
    },
  },
});

export const GATEWAY_DIRECTIVES = [
  ...specifiedDirectives,
  GraphQLDeferDirective,
  GraphQLStreamDirective,
  GraphQLLiveDirective,
  GraphQLCostDirective,
  GraphQLListSizeDirective,
];
