// urql with its defaults against the gateway: queries go as GET (no extra header needed), mutations
// as POST, the key as a header on both. docs/clients.md; test/examples/urql-client.test.ts runs it.
//   GATEWAY_URL=http://localhost:4000/graphql POSTHOG_KEY=phx_… node --import tsx examples/urql-client.ts 1
import { fileURLToPath } from 'node:url';
import { cacheExchange, createClient, fetchExchange, gql } from '@urql/core';

export const createUrqlClient = (url: string, key: string) =>
  createClient({
    url,
    exchanges: [cacheExchange, fetchExchange],
    fetchOptions: { headers: { Authorization: `Bearer ${key}` } },
  });

const HOG_FUNCTIONS = gql`
  query HogFunctions($projectId: String!) {
    project(projectId: $projectId) {
      hogFunctions(first: 10) { edges { node { id name type enabled } } }
    }
  }
`;

const SET_ENABLED = gql`
  mutation SetEnabled($id: ID!, $enabled: Boolean!) {
    updateHogFunction(input: { id: $id, enabled: $enabled }) { hogFunction { id enabled } }
  }
`;

interface HogFunction {
  id: string;
  name: string | null;
  type: string;
  enabled: boolean;
}

export async function hogFunctions(client: ReturnType<typeof createUrqlClient>, projectId: string) {
  const { data, error } = await client.query(HOG_FUNCTIONS, { projectId }).toPromise();
  if (error) throw error; // error.graphQLErrors: each with extensions.code
  return (data.project.hogFunctions.edges as { node: HogFunction }[]).map((edge) => edge.node);
}

export async function setEnabled(client: ReturnType<typeof createUrqlClient>, id: string, enabled: boolean) {
  const { data, error } = await client.mutation(SET_ENABLED, { id, enabled }).toPromise();
  if (error) throw error;
  return data.updateHogFunction.hogFunction as { id: string; enabled: boolean };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const client = createUrqlClient(
    process.env.GATEWAY_URL ?? 'http://localhost:4000/graphql',
    process.env.POSTHOG_KEY ?? '',
  );
  for (const fn of await hogFunctions(client, process.argv[2] ?? '@current'))
    console.log(fn.type, fn.name, fn.enabled);
}
