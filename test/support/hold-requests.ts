// Holding an emulator's requests: a call stays in flight until the test releases it, however slow
// the machine, so a test can count what is in flight (or what came first) without a clock.
import type { ReferenceUpstream } from 'posthog-emulator';

type Listener = (req: { url?: string }, res: { once(event: 'close', listener: () => void): void }) => void;

/**
 * Holds the requests `upstream` is sent whose URL `matches` until `release()` (the others are
 * answered as ever); `held()` counts those held, `cut()` those the caller gave up. Released, the
 * upstream answers those not cut, and the rest as before.
 */
export function holdRequests(upstream: ReferenceUpstream, matches: (url: string) => boolean = () => true) {
  const server = upstream.server;
  const answer = server.listeners('request') as Listener[];
  const answerNow = (args: Parameters<Listener>) => {
    for (const listener of answer) listener.apply(server, args);
  };
  const waiting: Parameters<Listener>[] = [];
  const cut = new Set<Parameters<Listener>>();
  server.removeAllListeners('request');
  server.on('request', (...args: Parameters<Listener>) => {
    if (!matches(args[0].url ?? '')) return answerNow(args);
    waiting.push(args);
    // Unanswered, the response closes only when the caller cuts the call.
    args[1].once('close', () => cut.add(args));
  });
  return {
    held: () => waiting.length,
    /** How many of the requests held (before `release()`) the caller has cut. */
    cut: () => cut.size,
    /** The URLs of the requests held, in the order they came. */
    urls: () => waiting.map(([req]) => req.url ?? ''),
    release() {
      server.removeAllListeners('request');
      for (const listener of answer) server.on('request', listener);
      // A call its caller cut is dropped: nobody is left to answer (nor to log it upstream).
      for (const args of waiting.splice(0)) if (!cut.has(args)) answerNow(args);
    },
  };
}
