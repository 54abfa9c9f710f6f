// A project's activity feed over Server-Sent Events (graphql-sse) that survives lost connections:
// it subscribes again with `after`, the id of the last entry it has, so nothing is missed and
// nothing comes twice. docs/live-updates.md; test/system/live/resume.test.ts runs it.
//   GATEWAY_URL=http://localhost:4000/graphql POSTHOG_KEY=phx_… node --import tsx examples/activity-feed-sse.ts 1 [after]
import { fileURLToPath } from 'node:url';
import { createClient } from 'graphql-sse';

export interface Entry {
  id: string;
  activity: string;
  scope: string;
  itemId: string | null;
  createdAt: string;
}
export interface FeedOptions {
  url: string;
  key: string;
  projectId: string;
  /** The id of the last entry you have (kept from an earlier run), or null: from now on. */
  after: string | null;
  onEntry: (entry: Entry) => void;
  /** Errors the feed goes on after: a 5xx, or entries left out past the catch-up bound. */
  onError?: (message: string, code: unknown) => void;
  signal: AbortSignal;
}
/** Answers after which subscribing again cannot help. */
const FINAL = [
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'PAYMENT_REQUIRED',
  'UPSTREAM_UNSUPPORTED',
  'BAD_USER_INPUT',
];

/** Follows the feed until `signal` aborts (or a final answer throws); returns the last entry's id. */
export async function followActivity(options: FeedOptions): Promise<string | null> {
  let after = options.after;
  while (!options.signal.aborted) {
    // No retries of its own: this loop subscribes again, with the `after` it has then.
    const client = createClient({
      url: options.url,
      headers: { Authorization: `Bearer ${options.key}` },
      retryAttempts: 0,
    });
    const feed = client.iterate<{ activityAdded: Entry }>({
      query: `subscription Feed($projectId: String!, $after: String) {
        activityAdded(projectId: $projectId, after: $after) { id activity scope itemId createdAt }
      }`,
      variables: { projectId: options.projectId, after },
    });
    const stop = () => void feed.return?.();
    options.signal.addEventListener('abort', stop);
    try {
      for await (const result of feed) {
        for (const { message, extensions } of result.errors ?? []) {
          if (FINAL.includes(String(extensions?.code)))
            throw new Error(`${extensions?.code}: ${message}`, { cause: 'final' });
          (options.onError ?? console.warn)(message, extensions?.code);
        }
        if (result.data?.activityAdded) {
          after = result.data.activityAdded.id;
          options.onEntry(result.data.activityAdded);
        }
      }
    } catch (error) {
      if ((error as Error).cause === 'final') throw error;
      // The connection was lost: subscribe again, after the last entry delivered.
    } finally {
      options.signal.removeEventListener('abort', stop);
      client.dispose();
    }
    if (!options.signal.aborted) await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return after;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  const last = await followActivity({
    url: process.env.GATEWAY_URL ?? 'http://localhost:4000/graphql',
    key: process.env.POSTHOG_KEY ?? '',
    projectId: process.argv[2] ?? '@current',
    after: process.argv[3] ?? null,
    onEntry: (entry) => console.log(JSON.stringify(entry)),
    signal: stop.signal,
  });
  console.error(
    `to resume: node --import tsx ${process.argv[1]} ${process.argv[2] ?? '@current'} ${last ?? ''}`,
  );
}
