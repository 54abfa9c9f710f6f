// The log's way to stdout: lines are gathered into batches of about 4 KB, each handed to a
// SonicBoom that writes it asynchronously (no blocking write(2) per line), and a batch that has
// not filled is handed over at most LOG_FLUSH_MS after its first line, so that at any traffic a
// line reaches stdout within a second. Whatever is left is written synchronously at exit.
import { pino } from 'pino';

/** The longest a line waits in a batch that does not fill. */
export const LOG_FLUSH_MS = 1000;
/** A batch this long (in UTF-16 units, about as many bytes for JSON lines) is handed over at once. */
const BATCH_LENGTH = 4096;

type Sonic = ReturnType<typeof pino.destination>;

export interface StdoutBatches extends pino.DestinationStream {
  write(line: string): void;
  /** Hands the batch over; `cb` once SonicBoom has taken it. */
  flush(cb?: (error?: Error) => void): void;
  /** Hands the batch over and writes everything held synchronously. */
  flushSync(): void;
}

/** Every batcher whose rest is written at exit (weakly: a logger dropped is not kept alive). */
const open = new Set<WeakRef<StdoutBatches>>();
let exitHook = false;

function writeAllAtExit(): void {
  for (const ref of open) {
    try {
      ref.deref()?.flushSync();
    } catch {
      // A closed or broken stdout (EPIPE): nothing more can be written.
    }
  }
}

export function stdoutBatches(fd = 1): StdoutBatches {
  // minLength 0: SonicBoom writes whatever it holds as soon as it is not writing, so a batch
  // handed to it is never left waiting for more.
  const sonic: Sonic = pino.destination({ dest: fd, sync: false, minLength: 0 });
  let batch = '';
  let timer: NodeJS.Timeout | undefined;

  const handOver = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (batch === '') return;
    const lines = batch;
    batch = '';
    sonic.write(lines);
  };

  const batches: StdoutBatches = {
    write(line) {
      batch += line;
      if (batch.length >= BATCH_LENGTH) handOver();
      else if (timer === undefined) {
        // One timer per batch, not per line; unref'd: it never keeps the process alive.
        timer = setTimeout(handOver, LOG_FLUSH_MS);
        timer.unref();
      }
    },
    flush(cb) {
      handOver();
      sonic.flush(cb);
    },
    flushSync() {
      handOver();
      sonic.flushSync();
    },
  };
  open.add(new WeakRef(batches));
  if (!exitHook) {
    exitHook = true;
    process.on('exit', writeAllAtExit);
  }
  return batches;
}
