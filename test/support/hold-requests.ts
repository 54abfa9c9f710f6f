// Holding an emulator's requests: a call stays in flight until the test releases it, however slow
// the machine, so a test can count what is in flight (or what came first) without a clock.
import type { ReferenceUpstream } from 'posthog-emulator';

type Listener = (req: { url?: string }, ...rest: unknown[]) => void;

/**
 * Holds the requests `upstream` is sent whose URL `matches` until `release()` (the others are
 * answered as ever); `held()` counts those held. Released, the upstream answers as before.
 */
export function holdRequests(upstream: ReferenceUpstream, matches: (url: string) => boolean = () => true) {
  const server = upstream.server;
  const answer = server.listeners('request') as Listener[];
  const answerNow = (args: Parameters<Listener>) => {
    for (const listener of answer) listener.apply(server, args);
  };
  const waiting: Parameters<Listener>[] = [];
  server.removeAllListeners('request');
  server.on('request', (...args: Parameters<Listener>) => {
    if (matches(args[0].url ?? '')) waiting.push(args);
    else answerNow(args);
  });
  return {
    held: () => waiting.length,
    /** The URLs of the requests held, in the order they came. */
    urls: () => waiting.map(([req]) => req.url ?? ''),
    release() {
      server.removeAllListeners('request');
      for (const listener of answer) server.on('request', listener);
      for (const args of waiting.splice(0)) answerNow(args);
    },
  };
}
