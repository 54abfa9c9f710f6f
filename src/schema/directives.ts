// The directives of incremental and live answers, in the schema so that GraphiQL, the Relay
// compiler and codegen see them: @defer and @stream (as the incremental-delivery RFC and
// @graphql-tools define them; yoga's defer-stream plugin executes them) and @live (live-queries.ts).
import {
  DirectiveLocation,
  GraphQLBoolean,
  GraphQLDirective,
  GraphQLInt,
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

export const GATEWAY_DIRECTIVES = [
  ...specifiedDirectives,
  GraphQLDeferDirective,
  GraphQLStreamDirective,
  GraphQLLiveDirective,
];
