// What a field costs, declared where the field is defined (`extensions: priced({...})`) and read
// from the schema by the estimator (estimate.ts) and by the SDL's @cost/@listSize (sdl.ts). The
// figures follow the loaders (src/loaders/): a change there is a change in the field's price.
// A field whose resolver is handed the request's context (the only way to the loaders) declares
// one, `calls: 0` if it reads nothing upstream (test/schema/priced-fields.test.ts).
import type { FieldNode, FragmentDefinitionNode, GraphQLField, GraphQLSchema } from 'graphql';

export type Args = Record<string, unknown>;

export interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Args;
  isMutation: boolean;
  /**
   * Whether an item's `activity(first: n)` is read with its page's other items' (the upstream has
   * advanced_activity_logs, or the gateway has not learnt that it lacks it).
   */
  itemHeadsBatched: boolean;
  /** The read of what `@current` stands for, once an operation that names it (rules.ts). */
  currentLookup: number;
  /** A connection's size to price instead of its `first`/`last` (advice.ts tries smaller ones). */
  sizes?: ReadonlyMap<FieldNode, number>;
  /** Where the walk records each connection it prices, for advice on a refused operation. */
  sites?: Map<FieldNode, ConnectionSite>;
}

/** A connection in the operation, as priced: what it adds, by its `first` (or `last`). */
export interface ConnectionSite {
  node: FieldNode;
  /** The response path, e.g. `project.destinations`. */
  path: string;
  argument: 'first' | 'last';
  size: number;
  cost: number;
  upstreamCalls: number;
}

/** Where a field is priced: its arguments, its node in the document, the walk. */
export interface PriceSite {
  args: Args;
  node: FieldNode;
  walk: Walk;
  /** Under `projects`, whose listing already carries what a project's own read would. */
  underProjects: boolean;
}

/** How many items a field returns: a Relay connection's `first`/`last`, a bound, or by its arguments. */
export type ListSize = { connection: true } | { assumed: number } | { of: (args: Args) => number };

export interface FieldPrice {
  /** The upstream requests the field makes itself: a number, or one computed where it is asked. */
  calls: number | ((site: PriceSite) => number);
  /**
   * The most `calls` computes (the SDL's @cost weight), per item for a list sized by its
   * arguments; `calls` itself when a number.
   */
  worst: number;
  /** A list: what is under it counts once per item. */
  list?: ListSize;
  /** Read with its list's other items' in one batch (a cross-link): see batchCalls. */
  batched?: (site: PriceSite) => boolean;
  /** An item's newest activity: read with its page's other items' where the upstream serves it. */
  itemHead?: true;
}

type Declared = Omit<FieldPrice, 'worst'> &
  ({ calls: number; worst?: number } | { calls: (site: PriceSite) => number; worst: number });

/** A field's `extensions` carrying its price. */
export const priced = (price: Declared): { cost: FieldPrice } => ({
  cost: { ...price, worst: price.worst ?? (price.calls as number) },
});

/** The price a field declares; undefined when it declares none. */
export const priceOf = (field: GraphQLField<unknown, unknown>): FieldPrice | undefined =>
  field.extensions?.cost as FieldPrice | undefined;

/** The field's own calls where it is asked. */
export const callsAt = (price: FieldPrice | undefined, site: PriceSite): number =>
  price === undefined ? 0 : typeof price.calls === 'number' ? price.calls : price.calls(site);
