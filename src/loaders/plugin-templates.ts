// Which hog function template stands for a legacy plugin, remembered across requests for the key
// that read it. A project's destinations leave out the plugin configs an enabled
// `legacy_destination` supersedes, and only a config's retrieve says its plugin's repository (a
// list answers `plugin_info: null`): one GET per distinct plugin (five of the eight calls of the
// reference upstream's project 1), made again by every request that shows them. A config names its plugin by id in every list answer, and a plugin id names the repository
// the plugin was installed from, which nothing in the configs or hog functions API changes: what a
// retrieve said holds for the next request.
//
// Only the plugin → template fact is kept, under a hash of the key that read it (upstream-notes.md:
// any longer-lived cache is keyed by a hash of the key): another key reads the plugin for itself,
// and a revoked key learns nothing, its lists failing first. Which legacy_destinations are enabled,
// and which configs there are (and of which plugin), are read fresh by every request. Each entry
// lives an hour at most, so a plugin PostHog changed in its own database is seen within the hour.
// Per process: each worker, and each gateway sharing a Redis, reads a plugin once for itself.

import { BoundedCache, stringBytes } from '../core/bounded-cache.ts';
import type { KeyHash } from '../core/caller-key.ts';

const LIFETIME_MS = 60 * 60 * 1000;

interface Remembered {
  template: string | null;
  until: number;
}

export class PluginTemplates {
  // Bounded however many keys call: a key hash and a repository name are each under 2 KB.
  private readonly remembered = new BoundedCache<Remembered>(
    { maxEntries: 10_000, maxBytes: 8 * 1024 * 1024, maxItemBytes: 4 * 1024 },
    (entry) => (entry.template === null ? 0 : stringBytes(entry.template)),
  );

  /** The template this key was told stands for the plugin; undefined when it must be read. */
  get(key: KeyHash, plugin: number): string | null | undefined {
    const id = `${key}:${plugin}`;
    const entry = this.remembered.get(id);
    if (entry === undefined) return undefined;
    if (entry.until > Date.now()) return entry.template;
    this.remembered.delete(id);
    return undefined;
  }

  set(key: KeyHash, plugin: number, template: string | null): void {
    this.remembered.set(`${key}:${plugin}`, { template, until: Date.now() + LIFETIME_MS });
  }
}
