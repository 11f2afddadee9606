/** Small SQL helpers the repositories share (search terms, numbers from aggregates). */

/** `%term%` for ILIKE with the term's own `%`, `_` and `\` matched literally. */
export function likeContains(term: string): string {
  return `%${escapeLike(term)}%`;
}

/** `term%` for a prefix match, wildcards in the term escaped. */
export function likePrefix(term: string): string {
  return `${escapeLike(term)}%`;
}

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A search term that is a whole email address. When some row has exactly that address, the search
 * matches it exactly (an index lookup) instead of as a substring: a trigram search for a full
 * address has to intersect the long posting lists of its common trigrams ('com', '@gm', ...) and
 * is the slowest search there is. An address nobody has is still searched as a substring.
 */
export function isWholeEmail(term: string): boolean {
  return /^[^\s@%_]+@[^\s@%_]+\.[^\s@%_]+$/.test(term);
}

/** count(*) and sums arrive as number, bigint or numeric string depending on the driver. */
export function toNumber(value: unknown): number {
  if (value === null || value === undefined) return 0;
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}
