// /metrics with WORKERS > 1: a scrape reaches one worker, but must see them all. The worker that
// takes it asks the primary, which collects every worker's registry over node:cluster's IPC
// (prom-client's AggregatorRegistry) and answers with the sums; each worker's metrics carry no
// worker label, so the series are the same as with one process.
import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const REQUEST = 'gateway:metrics-request';
const RESPONSE = 'gateway:metrics-response';
const TIMEOUT_MS = 5_000;

interface MetricsMessage {
  type?: string;
  id?: number;
  text?: string;
  error?: string;
}

/** In the primary: answer the workers' requests with every worker's metrics, aggregated. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: MetricsMessage) => {
    if (message?.type !== REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: RESPONSE, id: message.id, text }),
      (error: Error) => worker.send({ type: RESPONSE, id: message.id, error: error.message }),
    );
  });
}

/** In a worker: the whole cluster's metrics, asked of the primary. */
export function clusterMetricsFor(registry: Registry): () => Promise<string> {
  // The primary's AggregatorRegistry asks each worker for these registries.
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry();
  const pending = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  let next = 0;
  process.on('message', (message: MetricsMessage) => {
    if (message?.type !== RESPONSE || message.id === undefined) return;
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (message.error !== undefined) waiting?.reject(new Error(message.error));
    else waiting?.resolve(message.text ?? '');
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('the primary did not answer'));
      }, TIMEOUT_MS);
      pending.set(id, {
        resolve: (text) => {
          clearTimeout(timer);
          resolve(text);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      process.send!({ type: REQUEST, id });
    });
}
