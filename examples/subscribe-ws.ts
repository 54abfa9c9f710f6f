// The activity feed over WebSocket with graphql-ws, on Node's own WebSocket (Node 22 and later, as
// in a browser), the key in the connection's init payload, since a WebSocket carries no headers.
// docs/clients.md; test/system/examples/subscriptions.test.ts runs it. For a feed that resumes after a lost connection,
// see examples/activity-feed-ws.ts.
//   GATEWAY_URL=ws://localhost:4000/graphql POSTHOG_KEY=phx_… node --import tsx examples/subscribe-ws.ts 1
import { fileURLToPath } from 'node:url';
import { createClient } from 'graphql-ws';

export async function printActivity(url: string, key: string, projectId: string, events = Infinity) {
  const client = createClient({
    url,
    connectionParams: { Authorization: `Bearer ${key}` },
  });
  const feed = client.iterate({
    query: `subscription Feed($projectId: String!) {
      activityAdded(projectId: $projectId) { id activity scope itemId createdAt }
    }`,
    variables: { projectId },
  });
  try {
    for await (const event of feed) {
      console.log(JSON.stringify(event));
      if (--events <= 0) break; // ends the subscription
    }
  } finally {
    await client.dispose();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await printActivity(
    process.env.GATEWAY_URL ?? 'ws://localhost:4000/graphql',
    process.env.POSTHOG_KEY ?? '',
    process.argv[2] ?? '@current',
  );
}
