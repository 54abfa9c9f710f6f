// Redis as teams run it, for the shared-state tests (Debian's redis-server, each on free ports, in
// a temporary directory, no persistence): one server speaking TLS only; a Redis Cluster of three
// masters; a Sentinel group (a master, a replica, three Sentinels).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, waitFor } from './redis-server.ts';
import { until } from './wait.ts';

/** One redis-server process (or Sentinel) with these arguments. */
export class RedisNode {
  private constructor(
    readonly port: number,
    private readonly child: ChildProcess,
  ) {}

  static async start(
    port: number,
    args: string[],
    ready = /Ready to accept connections/,
  ): Promise<RedisNode> {
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    await waitFor(child, ready, `redis-server ${args.join(' ')}`);
    return new RedisNode(port, child);
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await once(this.child, 'exit');
  }
}

const plain = (port: number, dir: string) => [
  '--port',
  String(port),
  '--bind',
  '127.0.0.1',
  '--save',
  '',
  '--appendonly',
  'no',
  '--dir',
  dir,
];

/** A Redis that speaks TLS only (no plain port), with this certificate and key (PEM) and password. */
export async function startTlsRedis(
  cert: string,
  key: string,
  password: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-redis-tls-'));
  writeFileSync(join(dir, 'cert.pem'), cert);
  writeFileSync(join(dir, 'key.pem'), key);
  const port = await freePort();
  const node = await RedisNode.start(port, [
    ...plain(0, dir),
    '--tls-port',
    String(port),
    '--tls-cert-file',
    join(dir, 'cert.pem'),
    '--tls-key-file',
    join(dir, 'key.pem'),
    '--tls-auth-clients',
    'no',
    '--requirepass',
    password,
  ]);
  return {
    url: `rediss://127.0.0.1:${port}`,
    async stop() {
      await node.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Redis Cluster of `masters` masters, each with `replicas` replicas, every slot assigned, its state ok. */
export async function startRedisCluster(
  masters = 3,
  replicas = 0,
): Promise<{ nodes: RedisNode[]; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-redis-cluster-'));
  const nodes: RedisNode[] = [];
  for (let n = 0; n < masters * (1 + replicas); n++) {
    const port = await freePort();
    const args = [
      ...plain(port, dir),
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      `nodes-${port}.conf`,
    ];
    // A replica syncs at once and may take over however long it was cut off.
    const failover = ['--repl-diskless-sync-delay', '0', '--cluster-replica-validity-factor', '0'];
    nodes.push(await RedisNode.start(port, [...args, '--cluster-node-timeout', '2000', ...failover]));
  }
  execFileSync(
    'redis-cli',
    [
      '--cluster',
      'create',
      ...nodes.map((node) => `127.0.0.1:${node.port}`),
      '--cluster-replicas',
      String(replicas),
      '--cluster-yes',
    ],
    { stdio: 'pipe' },
  );
  for (const node of nodes) {
    const client = new Redis(node.port, '127.0.0.1');
    try {
      await until(
        async () =>
          String(await client.cluster('INFO')).includes('cluster_state:ok') &&
          !/role:slave[\s\S]*master_link_status:down/.test(await client.info('replication')),
        `cluster state ok on ${node.port} (and a replica in sync)`,
        { withinMs: 60_000, everyMs: 200 },
      );
    } finally {
      client.disconnect();
    }
  }
  return {
    nodes,
    async stop() {
      await Promise.all(nodes.map((node) => node.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface SentinelGroup {
  master: RedisNode;
  replica: RedisNode;
  sentinels: RedisNode[];
  /** REDIS_SENTINELS's value. */
  list: string;
  /** The port of the master the Sentinels name now. */
  masterPort(): Promise<number>;
  stop(): Promise<void>;
}

/** A master, its replica, and three Sentinels watching them as `mymaster` (quorum 2). */
export async function startSentinelGroup(): Promise<SentinelGroup> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-redis-sentinel-'));
  const masterPort = await freePort();
  const master = await RedisNode.start(masterPort, plain(masterPort, dir));
  const replicaPort = await freePort();
  const replica = await RedisNode.start(replicaPort, [
    ...plain(replicaPort, dir),
    '--replicaof',
    '127.0.0.1',
    String(masterPort),
  ]);
  const sentinels: RedisNode[] = [];
  for (let n = 0; n < 3; n++) {
    const port = await freePort();
    const file = join(dir, `sentinel-${port}.conf`);
    writeFileSync(
      file,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor mymaster 127.0.0.1 ${masterPort} 2`,
        'sentinel down-after-milliseconds mymaster 1000',
        'sentinel failover-timeout mymaster 5000',
        'sentinel parallel-syncs mymaster 1',
        '',
      ].join('\n'),
    );
    sentinels.push(await RedisNode.start(port, [file, '--sentinel'], /\+monitor master mymaster/));
  }
  const asked = new Redis(sentinels[0]!.port, '127.0.0.1');
  return {
    master,
    replica,
    sentinels,
    list: sentinels.map((sentinel) => `127.0.0.1:${sentinel.port}`).join(','),
    async masterPort() {
      const [, port] = (await asked.call('SENTINEL', 'get-master-addr-by-name', 'mymaster')) as [
        string,
        string,
      ];
      return Number(port);
    },
    async stop() {
      asked.disconnect();
      await Promise.all([master, replica, ...sentinels].map((node) => node.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
