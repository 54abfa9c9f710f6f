// Real processes for the shared-state tests: a Redis server (Debian's redis-server, on a free
// port, no persistence) that can be stopped and started again on its port, and gateway processes
// started as `npm run dev` starts them (src/main.ts under tsx), each found by the URL it prints.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

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
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      PATH: process.env.PATH,
      UPSTREAM_URL: upstreamUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SHUTDOWN_GRACE_MS: '500',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [, origin] = await waitFor(child, /GraphQL and GraphiQL at (http:\/\/[^/\s]+)/, 'gateway');
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
