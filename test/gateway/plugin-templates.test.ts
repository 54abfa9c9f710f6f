// What a key was told of legacy plugins is kept an hour, for that key only, and in bounded room
// however many keys call (the request-level behaviour: hog-functions.test.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashKey } from '../../src/core/caller-key.ts';
import { PluginTemplates } from '../../src/loaders/plugin-templates.ts';

describe('PluginTemplates', () => {
  afterEach(() => vi.useRealTimers());

  it('answers for the key that read a plugin, for an hour', () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-26T12:00:00Z') });
    const templates = new PluginTemplates();
    const key = hashKey('Bearer phx_a');
    templates.set(key, 1, 'plugin-posthog-plugin-geoip');
    templates.set(key, 2, null);
    expect(templates.get(key, 1)).toBe('plugin-posthog-plugin-geoip');
    expect(templates.get(key, 2)).toBeNull();
    expect(templates.get(hashKey('Bearer phx_b'), 1)).toBeUndefined();
    vi.setSystemTime(Date.parse('2026-11-26T12:59:59Z'));
    expect(templates.get(key, 1)).toBe('plugin-posthog-plugin-geoip');
    vi.setSystemTime(Date.parse('2026-11-26T13:00:01Z'));
    expect(templates.get(key, 1)).toBeUndefined();
  });

  it('keeps at most 10,000 facts, dropping the least recently used', () => {
    const templates = new PluginTemplates();
    const first = hashKey('Bearer phx_0');
    templates.set(first, 1, 'plugin-first');
    for (let i = 1; i <= 10_000; i++) templates.set(hashKey(`Bearer phx_${i}`), 1, `plugin-${i}`);
    expect(templates.get(first, 1)).toBeUndefined();
    expect(templates.get(hashKey('Bearer phx_1'), 1)).toBe('plugin-1');
    expect(templates.get(hashKey('Bearer phx_10000'), 1)).toBe('plugin-10000');
  });
});
