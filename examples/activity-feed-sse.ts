// A project's activity feed over Server-Sent Events (graphql-sse) that survives a lost connection:
// it subscribes again with `after` set to the last entry it has, so nothing is missed and nothing
// comes twice (docs/live-updates.md; test/live/resume.test.ts runs it against a gateway).
//   GATEWAY_URL=http://localhost:4000/graphql POSTHOG_KEY=phx_… node --import tsx examples/activity-feed-sse.ts 1
import { fileURLToPath } from 'node:url';
import { createClient } from 'graphql-sse';

const FEED = `subscription Feed($projectId: String!, $after: String) {
  activityAdded(projectId: $projectId, after: $after) { id activity scope itemId createdAt }
}`;
/** Answers after which subscribing again cannot help: the feed stops and says why. */
const FINAL = ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'PAYMENT_REQUIRED', 'UPSTREAM_UNSUPPORTED', 'BAD_USER_INPUT'];

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
  /** Errors the stream goes on after (a 5xx, entries left out past the catch-up bound). */
  onError?: (message: string, code: unknown) => void;
  /** Stops the feed. */
  signal: AbortSignal;
  /** The wait before subscribing again after a lost connection. */
  retryMs?: number;
}

/** Follows the feed until `signal` aborts (or a final answer); returns the id of the last entry. */
export async function followActivity(options: FeedOptions): Promise<string | null> {
  let after = options.after;
  while (!options.signal.aborted) {
    const client = createClient({
      url: options.url,
      headers: { Authorization: `Bearer ${options.key}` },
      retryAttempts: 0, // the loop below resubscribes, with the `after` it has then
    });
    const feed = client.iterate<{ activityAdded: Entry | null }>({
      query: FEED,
      variables: { projectId: options.projectId, after },
    });
    const stop = () => void feed.return?.();
    options.signal.addEventListener('abort', stop);
    try {
      for await (const result of feed) {
        for (const error of result.errors ?? []) {
          const code = error.extensions?.code;
          if (FINAL.includes(String(code))) throw new FeedEnded(error.message, String(code));
          (options.onError ?? console.warn)(error.message, code);
        }
        const entry = result.data?.activityAdded;
        if (entry) {
          after = entry.id;
          options.onEntry(entry);
        }
      }
    } catch (error) {
      if (error instanceof FeedEnded) throw error;
      // The connection was lost: subscribe again after the last entry delivered.
    } finally {
      options.signal.removeEventListener('abort', stop);
      client.dispose();
    }
    if (!options.signal.aborted) await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 1_000));
  }
  return after;
}

export class FeedEnded extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
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
  console.error(`Resume with: ${process.argv[1]} ${process.argv[2] ?? '@current'} ${last ?? ''}`);
}
