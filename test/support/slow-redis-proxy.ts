// A TCP hop between gateways and Redis that holds each of Redis's answers for `delayMs` before it
// passes it on, in order: a Redis that is slow (loaded, or far away) without being silent.
import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

export class SlowRedisProxy {
  /** How long each answer is held; 0 passes answers on at once. */
  delayMs = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(redisPort: number): Promise<SlowRedisProxy> {
    let proxy: SlowRedisProxy | null = null;
    const server = createServer((client) => {
      const redis = connect(redisPort, '127.0.0.1');
      // When the last answer held goes: a later one never overtakes it.
      let lastOut = 0;
      for (const socket of [client, redis]) {
        proxy!.sockets.add(socket);
        socket.on('close', () => proxy!.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.on('data', (chunk) => redis.write(chunk));
      redis.on('data', (chunk: Buffer) => {
        lastOut = Math.max(lastOut, Date.now() + proxy!.delayMs);
        const timer = setTimeout(() => client.write(chunk), lastOut - Date.now());
        timer.unref();
      });
      client.on('close', () => redis.destroy());
      redis.on('close', () => client.destroy());
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    proxy = new SlowRedisProxy(server, (server.address() as AddressInfo).port);
    return proxy;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server.close();
    await once(this.server, 'close');
  }
}
