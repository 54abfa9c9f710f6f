// Real processes for the shared-state tests: a Redis server (Debian's redis-server, on a free
// port, no persistence) that can be stopped and started again on its port, and gateway processes
// started as `npm run dev` starts them (src/main.ts under tsx), each found by the URL it prints.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import type { Harness } from './harness.ts';
import { RespFrames } from './resp-frames.ts';

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Resolves with the first match of `pattern` in the child's stdout; rejects if it exits first. */
export function waitFor(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = pattern.exec(output);
      if (!match) return;
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      child.stdout!.resume();
      resolve(match);
    };
    const onExit = (code: number | null) => reject(new Error(`${what} exited ${code}: ${output}`));
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });
}

export class RedisServer {
  private child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.resume();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Its process id while it runs (the bench sums its RSS). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts it (again) on its port. */
  async resume(): Promise<void> {
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await waitFor(this.child, /Ready to accept connections/, 'redis-server');
  }

  /**
   * Stops it answering without closing a connection (SIGSTOP): a Redis that stalls, as a paused
   * server or a network black hole does, while its clients still think it ready.
   */
  freeze(): void {
    this.child?.kill('SIGSTOP');
  }

  /** Lets a frozen Redis answer again. */
  thaw(): void {
    this.child?.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGKILL');
    await once(child, 'exit');
    this.child = null;
  }
}

/** What subscribe() and the live clients need of a harness: where a gateway process listens. */
export const asHarness = (g: GatewayProcess) =>
  ({ url: g.url, wsUrl: g.url.replace('http', 'ws') }) as Harness;

export interface GatewayProcess {
  url: string;
  origin: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** A gateway process (src/main.ts), in front of `upstreamUrl`, with these settings. */
export async function startGatewayProcess(
  upstreamUrl: string,
  env: Record<string, string>,
): Promise<GatewayProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    env: {
      PATH: process.env.PATH,
      UPSTREAM_URL: upstreamUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SHUTDOWN_GRACE_MS: '500',
      // The budget's whole window, as the shared-state tests count it, unless a test sets a reserve.
      UPSTREAM_BUDGET_RESERVE_PERCENT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // With WORKERS=n each worker says so once it listens: all of them, so that connections are
  // spread over every worker from the first.
  const workers = /^\d+$/.test(env.WORKERS ?? '') ? Number(env.WORKERS) : 1;
  const listening = 'GraphQL and GraphiQL at (http:\\/\\/[^/\\s]+)';
  const pattern = new RegExp(
    `${listening}${'[\\s\\S]*?GraphQL and GraphiQL at'.repeat(Math.max(0, workers - 1))}`,
  );
  const [, origin] = await waitFor(child, pattern, 'gateway');
  const url = `${origin!.replace('localhost', '127.0.0.1')}/graphql`;
  return {
    url,
    origin: origin!.replace('localhost', '127.0.0.1'),
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/**
 * A TCP hop between gateways and Redis that can stop passing the published messages to the
 * connections that subscribed (the pub/sub connections), keeping them open and answering their
 * pings: messages published meanwhile are lost to those processes, as they are when a subscriber
 * connection drops and comes back, while their commands connection goes on working. It can
 * silence those connections altogether, as a NAT that forgot them does, and those yet to come from
 * their first subscribe. It can also let a transaction run and drop its answer, as a connection
 * lost between the two does.
 */
export class RedisTap {
  private muted = false;
  /** Set by silenceSubscribersToCome: each connection goes silent at its first subscribe. */
  private silencingLaterSubscribers = false;
  /** Armed by dropReplyToTransaction: what its commands must hold, and what it settles. */
  private dropping: { writes: RegExp[]; run: boolean; dropped: () => void } | null = null;
  private readonly sockets = new Set<Socket>();
  /** Silences each subscriber connection open now (silenceSubscriberConnections). */
  private readonly subscriberSilencers = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(redisPort: number): Promise<RedisTap> {
    let tap: RedisTap | null = null;
    const server = createServer((client) => {
      const redis = connect(redisPort, '127.0.0.1');
      let subscriber = false;
      // What this connection sent since a drop was armed, and whether its answers are dropped.
      let sent = '';
      let sentFor: object | null = null;
      let deaf = false;
      // Nothing crosses a silenced connection, either way, and nothing closes it.
      let silent = false;
      const silence = () => {
        silent = true;
      };
      for (const socket of [client, redis]) {
        tap!.sockets.add(socket);
        socket.on('close', () => {
          tap!.sockets.delete(socket);
          tap!.subscriberSilencers.delete(silence);
        });
        socket.on('error', () => undefined);
      }
      client.on('data', (chunk) => {
        if (silent) return;
        const text = chunk.toString('latin1');
        // A command whose name is (P)SUBSCRIBE, not a payload that holds the word.
        if (/\r\np?subscribe\r\n/i.test(text) && !subscriber) {
          subscriber = true;
          tap!.subscriberSilencers.add(silence);
          if (tap!.silencingLaterSubscribers) silence();
        }
        if (silent) return;
        const dropping = subscriber ? null : tap!.dropping;
        if (dropping && sentFor !== dropping) {
          sent = '';
          sentFor = dropping;
        }
        if (dropping) sent += text;
        const whole = dropping?.writes.every((write) => write.test(sent)) && /EXEC/i.test(sent);
        if (!dropping || !whole) {
          redis.write(chunk);
          return;
        }
        // Not passed on: Redis discards the transaction it began when the connection goes.
        if (dropping.run) redis.write(chunk);
        tap!.dropping = null;
        deaf = true;
        dropping.dropped();
      });
      // Frame by frame: a muted subscriber still hears the answers to its pings and subscriptions.
      const frames = new RespFrames((frame, published) => {
        if (!deaf && !silent && !(published && subscriber && tap!.muted)) client.write(frame);
      });
      redis.on('data', (chunk: Buffer) => frames.push(chunk));
      client.on('close', () => redis.destroy());
      redis.on('close', () => client.destroy());
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    tap = new RedisTap(server, (server.address() as AddressInfo).port);
    return tap;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** While on, the messages Redis publishes to a subscriber connection are dropped. */
  muteSubscribers(on: boolean): void {
    this.muted = on;
  }

  /**
   * The subscriber connections open now go silent both ways, for good, as one that a NAT or a
   * load balancer forgot while it was idle: what either end sends is dropped, and neither end is
   * told. Connections made after it pass as before.
   */
  silenceSubscriberConnections(): void {
    for (const silence of this.subscriberSilencers) silence();
  }

  /**
   * From now on each connection goes silent both ways at its first subscribe, the subscribe
   * itself unsent: a process whose pub/sub connection never hears back from Redis.
   */
  silenceSubscribersToCome(): void {
    this.silencingLaterSubscribers = true;
  }

  /**
   * Passes the next transaction whose commands hold every one of `writes` to Redis, which runs it
   * (or, `run` false, holds back its EXEC, so that it never runs), and drops every answer on its
   * connection from then on: the client never hears whether it ran. Settles once the
   * transaction's EXEC has reached the tap.
   */
  dropReplyToTransaction(writes: RegExp[], run = true): Promise<void> {
    return new Promise((dropped) => {
      this.dropping = { writes, run, dropped };
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server.close();
    await once(this.server, 'close');
  }
}
