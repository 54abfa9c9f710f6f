// `?search=` on the hog function list: posthog/helpers/trigram_search.py (apply_trigram_search,
// code-index id 54496321283) as HogFunctionViewSet uses it, over `name` (word and full trigram
// similarity, literal substring) and `description` (word similarity ×0.5 at threshold 0.4,
// literal substring). Rows whose name or description contains the term are `exact`; only when
// there are none are the trigram matches returned, as `similar`. Ordered by score, then name.
// pg_trgm's similarity is computed here as Postgres defines it; word_similarity as the best
// Jaccard ratio over the contiguous extents of the second string's trigrams.
import type { HogFunction } from '../model.ts';

export const MAX_SEARCH_LENGTH = 200;
const MIN_NAME_SIMILARITY = 0.3;
const MIN_DESCRIPTION_SIMILARITY = 0.4;
const DESCRIPTION_WEIGHT = 0.5;

/** pg_trgm's trigrams of each word (alphanumeric run), padded "  word ", in order. */
function trigramList(text: string): string[] {
  const list: string[] = [];
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) list.push(padded.slice(i, i + 3));
  }
  return list;
}

const jaccard = (a: Set<string>, b: Set<string>) => {
  let common = 0;
  for (const t of b) if (a.has(t)) common++;
  const union = a.size + b.size - common;
  return union === 0 ? 0 : common / union;
};

/** pg_trgm similarity(a, b). */
export const similarity = (a: string, b: string) => jaccard(new Set(trigramList(a)), new Set(trigramList(b)));

/** pg_trgm word_similarity(a, b): a against the best contiguous extent of b's trigrams. */
export function wordSimilarity(a: string, b: string): number {
  const mine = new Set(trigramList(a));
  const theirs = trigramList(b);
  let best = 0;
  for (let i = 0; i < theirs.length; i++) {
    const extent = new Set<string>();
    for (let j = i; j < theirs.length; j++) {
      extent.add(theirs[j]!);
      best = Math.max(best, jaccard(mine, extent));
    }
  }
  return best;
}

/** normalize_search_term: no NUL bytes, no surrounding whitespace. */
export const normalizeSearch = (search: string) => search.replaceAll('\0', '').trim();

export interface SearchHit {
  fn: HogFunction;
  match: 'exact' | 'similar';
}

/** The functions `search` finds, best first, each with how it matched. */
export function trigramSearch(functions: HogFunction[], rawSearch: string): SearchHit[] {
  const search = normalizeSearch(rawSearch);
  const needle = search.toLowerCase();
  const scored = functions.map((fn) => {
    // Coalesce(..., 0.0): a null name scores nothing and contains nothing.
    const name = fn.name ?? '';
    const wordName = wordSimilarity(search, name);
    const wordDescription = wordSimilarity(search, fn.description);
    return {
      fn,
      name,
      exact: name.toLowerCase().includes(needle) || fn.description.toLowerCase().includes(needle),
      similar: wordName > MIN_NAME_SIMILARITY || wordDescription > MIN_DESCRIPTION_SIMILARITY,
      score: wordName + similarity(name, search) + wordDescription * DESCRIPTION_WEIGHT,
    };
  });
  const exact = scored.filter((s) => s.exact);
  const chosen = exact.length > 0 ? exact : scored.filter((s) => s.similar);
  return chosen
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((s) => ({ fn: s.fn, match: s.exact ? 'exact' : 'similar' }));
}
