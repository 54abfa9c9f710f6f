// How config/index.ts reads one environment variable: a parser per kind of value, each refusing with a
// message that says what it expected (the choices, where there are choices), and `createReader`,
// which records a refusal under the variable's name instead of stopping at the first.
//
// Read by these few parsers rather than a schema library, which would stay in the heap for the
// life of the process to read a few dozen variables once: every MB a process holds at rest is
// multiplied by V8's heap growth under load (docs/performance.md).
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** A value a parser refuses; its message ends up after the variable's name. */
class Refused extends Error {}
export const refuse = (message: string): never => {
  throw new Refused(message);
};

export type Parse<T> = (text: string) => T;

export const integer =
  (min: number, max: number): Parse<number> =>
  (text) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min || n > max) refuse(`expected an integer from ${min} to ${max}`);
    return n;
  };

export const oneOf =
  <T extends string>(...values: T[]): Parse<T> =>
  (text) =>
    values.includes(text as T) ? (text as T) : refuse(`expected one of ${values.join(', ')}`);

export const flag: Parse<boolean> = (text) => {
  const value = oneOf('true', 'false', '1', '0')(text);
  return value === 'true' || value === '1';
};

/** A URL of one of these schemes (`http`, `https`), or a refusal saying which were expected. */
const urlOf =
  (...schemes: string[]): Parse<URL> =>
  (text) => {
    const expected = `expected a URL starting ${schemes.map((scheme) => `${scheme}://`).join(' or ')}`;
    let url: URL | null = null;
    try {
      url = new URL(text);
    } catch {
      refuse(expected);
    }
    if (!schemes.includes(url!.protocol.slice(0, -1))) refuse(expected);
    return url!;
  };

export const httpUrl = urlOf('http', 'https');
export const redisUrl = urlOf('redis', 'rediss');

export const text: Parse<string> = (value) => value;

/** A Redis URL as messages may show it: no user, no password. */
export const redisLabel = (url: URL) =>
  `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;

export const list: Parse<string[]> = (value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

export const workers: Parse<number> = (value) => {
  if (value === 'auto') return availableParallelism();
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 256 ? n : refuse('expected an integer from 1 to 256, or auto');
};

/** A PEM file of certificates, read whole at start-up. */
export const pemFile: Parse<string> = (path) => {
  let pem = '';
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    refuse(`cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return pem.includes('-----BEGIN CERTIFICATE-----') ? pem : refuse('expected PEM certificates');
};

/** Reads one variable: its parsed value, or `fallback` when unset (a refusal is recorded). */
export type Read = <T, F = T>(name: string, parse: Parse<T>, fallback: F) => T | F;

/**
 * A reader of `env` that records each refusal in `problems` as `NAME="value": what was expected`
 * (and goes on with the fallback), so that start-up can name every bad variable at once. An empty
 * variable counts as unset, as shells and .env files usually mean it.
 */
export function createReader(env: Record<string, string | undefined>, problems: string[]): Read {
  return (name, parse, fallback) => {
    const value = env[name];
    if (value === undefined || value === '') return fallback;
    try {
      return parse(value);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      problems.push(`${name}=${JSON.stringify(value)}: ${error.message}`);
      return fallback;
    }
  };
}
