// The activity feed over Server-Sent Events with graphql-sse (distinct connections mode, what the
// gateway serves): the key goes as a header, as on any request. docs/clients.md;
// test/system/examples/subscriptions.test.ts runs it. For a feed that resumes after a lost connection,
// see examples/activity-feed-sse.ts.
//   GATEWAY_URL=http://localhost:4000/graphql POSTHOG_KEY=phx_… node --import tsx examples/subscribe-sse.ts 1
import { fileURLToPath } from 'node:url';
import { createClient } from 'graphql-sse';

export async function printActivity(url: string, key: string, projectId: string, events = Infinity) {
  const client = createClient({ url, headers: { Authorization: `Bearer ${key}` } });
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
    client.dispose();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await printActivity(
    process.env.GATEWAY_URL ?? 'http://localhost:4000/graphql',
    process.env.POSTHOG_KEY ?? '',
    process.argv[2] ?? '@current',
  );
}
