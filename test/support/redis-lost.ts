// Which gateway processes lost Redis while something ran: each says so once in its log
// (observability/wiring.ts, `"redis":"down"`), whenever it happens.
import { settle } from './wait.ts';

interface LoggingProcess {
  child: { stdout: NodeJS.ReadableStream | null };
}

/** What `run` gives, and how many of `processes` logged losing Redis while it ran. */
export async function losingRedis<T>(processes: LoggingProcess[], run: () => Promise<T>) {
  const lost = new Set<LoggingProcess>();
  const offs = processes.map((gateway) => {
    const listener = (chunk: Buffer | string) => {
      if (String(chunk).includes('"redis":"down"')) lost.add(gateway);
    };
    gateway.child.stdout!.on('data', listener);
    return () => gateway.child.stdout!.off('data', listener);
  });
  try {
    const result = await run();
    await settle(2_000); // a log line reaches stdout within a second
    return { result, lost: lost.size };
  } finally {
    for (const off of offs) off();
  }
}
