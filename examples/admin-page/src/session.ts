// One signed-in session: an Apollo Client that sends the user's key on every request (HTTP as a
// header, the WebSocket in its init payload) and holds it in this object only: never in storage,
// a cookie or a URL. Signing out disposes of it, and closing the tab forgets it.
import { ApolloClient, HttpLink, InMemoryCache, split } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition } from '@apollo/client/utilities';
import { createClient } from 'graphql-ws';

/** The schema's interfaces and their types: without them a fragment on an interface never matches. */
export const POSSIBLE_TYPES = {
  Node: [
    'BatchExport',
    'BatchExportBackfill',
    'BatchExportRun',
    'DestinationConfig',
    'HogFunction',
    'HogFunctionRevision',
    'Project',
  ],
  Destination: ['BatchExport', 'DestinationConfig', 'HogFunction'],
};

export interface Session {
  /** The gateway's /graphql, over http(s); the WebSocket is the same URL over ws(s). */
  url: string;
  client: ApolloClient;
  dispose(): void;
}

export function openSession(url: string, key: string): Session {
  const authorization = `Bearer ${key}`;
  const http = new HttpLink({ uri: url, headers: { Authorization: authorization } });
  const socket = createClient({
    url: url.replace(/^http/, 'ws'),
    // A browser's WebSocket takes no headers: the key goes in the connection's init payload.
    connectionParams: { Authorization: authorization },
  });
  const isSubscription = ({ query }: { query: Parameters<typeof getMainDefinition>[0] }) => {
    const definition = getMainDefinition(query);
    return definition.kind === 'OperationDefinition' && definition.operation === 'subscription';
  };
  const client = new ApolloClient({
    link: split(isSubscription, new GraphQLWsLink(socket), http),
    cache: new InMemoryCache({ possibleTypes: POSSIBLE_TYPES }),
  });
  return {
    url,
    client,
    dispose: () => {
      client.stop();
      void client.clearStore();
      void socket.dispose();
    },
  };
}
