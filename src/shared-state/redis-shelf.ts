// Kept GET answers in Redis when REDIS_URL is set (upstream/kept/shelf.ts): every process answers
// from, drops and bounds one set of entries (`{kept}:…` keys, each with a TTL), and one process
// reads a place for all (a claim, `SET NX` for the reader's deadline). Redis lost, slow or silent:
// this process's memory alone, as without REDIS_URL; a change seen meanwhile drops every entry in
// Redis once it answers again. A request waits KEPT_WAIT_MS at most for Redis.
import { createHash } from 'node:crypto';
import type { KeptAnswer, Look, Place, Shelf } from '../upstream/kept/shelf.ts';
import type { SharedRedis } from './redis.ts';
import { BUMP, LOOK, PUT } from './redis-shelf-scripts.ts';

/** How long a read waits for Redis to say what it holds. */
export const KEPT_WAIT_MS = 250;

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');
const entryKey = (id: string) => `{kept}:e:${digest(id)}`;
const flightKey = (flight: string) => `{kept}:f:${digest(flight)}`;
const generationKey = (name: string) => `{kept}:g:${name}`;
const BOUND_KEYS = ['{kept}:index', '{kept}:total', '{kept}:sizes'];

type Meta = Omit<KeptAnswer, 'body'>;

export class RedisShelf implements Shelf {
  /** A change was counted only here while Redis was lost: Redis drops everything when it is back. */
  private missedChange = false;

  constructor(
    private readonly redis: SharedRedis,
    private readonly here: Shelf,
    private readonly options: { keepMs: number; maxBytes: number },
  ) {}

  async look(id: string, generations: readonly string[], flight?: string): Promise<Look> {
    if (!this.ready()) return this.here.look(id, generations, flight);
    const keys = [entryKey(id), ...generations.map(generationKey)];
    if (flight !== undefined) keys.push(flightKey(flight));
    const asked = this.redis.commands.callBuffer('eval', [LOOK, keys.length, ...keys]) as Promise<unknown[]>;
    const answer = await withinWait(asked);
    if (!answer) return { seen: null };
    const [seen, meta, body, reading] = answer as [Buffer, Buffer | null, Buffer | null, number];
    const look: Look = { seen: seen.toString(), reading: Number(reading) === 1 };
    if (meta && body) look.kept = { ...(JSON.parse(meta.toString()) as Meta), body };
    return look;
  }

  put(place: Place, answer: KeptAnswer): void {
    if (place.seen === null) return;
    if (!this.ready()) {
      this.here.put(place, answer);
      return;
    }
    const { status, contentType, deprecation, at } = answer;
    const keys = [entryKey(place.id), ...place.generations.map(generationKey), ...BOUND_KEYS];
    const meta = JSON.stringify({ status, contentType, deprecation, at } satisfies Meta);
    const args = [place.seen, meta, answer.body, this.options.keepMs, Date.now(), this.options.maxBytes];
    this.redis.commands.eval(PUT, keys.length, ...keys, ...args).catch(() => undefined);
  }

  changed(generations: readonly string[]): void {
    this.here.changed(generations);
    if (!this.redis.healthy) {
      this.missedChange = true;
      return;
    }
    this.bump(generations);
  }

  async claim(flight: string, ms: number): Promise<boolean> {
    if (!this.ready()) return true;
    const set = this.redis.commands.set(flightKey(flight), this.redis.processId, 'PX', ms, 'NX');
    const taken = await withinWait(set.then((reply) => reply === 'OK'));
    // Redis could not say: this process reads for itself.
    return taken ?? true;
  }

  release(flight: string): void {
    if (this.redis.healthy) this.redis.commands.del(flightKey(flight)).catch(() => undefined);
  }

  /** Whether Redis is the shelf now (after dropping what a change missed while it was lost). */
  private ready(): boolean {
    if (!this.redis.healthy) return false;
    if (this.missedChange) {
      this.missedChange = false;
      this.bump(['*']);
    }
    return true;
  }

  private bump(generations: readonly string[]): void {
    const keys = generations.map(generationKey);
    // Kept past the oldest entry any of them may drop.
    const lifetimeMs = 2 * this.options.keepMs + 60_000;
    this.redis.commands.eval(BUMP, keys.length, ...keys, lifetimeMs).catch(() => undefined);
  }
}

/** The answer, or null when Redis does not give it within KEPT_WAIT_MS. */
async function withinWait<T>(asked: Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), KEPT_WAIT_MS);
  });
  return Promise.race([asked.catch(() => null), late]).finally(() => clearTimeout(timer));
}
