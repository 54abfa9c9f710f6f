// A poller's events as they cross between processes (shared-state/shared-polling.ts): an item as
// its JSON, an error as its message and extensions.
import { GraphQLError } from 'graphql';
import type { WireEvent } from '../../shared-state/shared-polling.ts';
import type { PollerEvent } from './poller.ts';

export const toWire = <Item>(event: PollerEvent<Item>): WireEvent =>
  event.kind === 'entry'
    ? event
    : { kind: event.kind, message: event.error.message, extensions: { ...event.error.extensions } };
// An item crosses Redis as its JSON, and is taken back as the feed's (the same code wrote it).
export const fromWire = <Item>(event: WireEvent): PollerEvent<Item> =>
  event.kind === 'entry'
    ? { kind: 'entry', entry: event.entry as Item }
    : { kind: event.kind, error: new GraphQLError(event.message, { extensions: event.extensions }) };
