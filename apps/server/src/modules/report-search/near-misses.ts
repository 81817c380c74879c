/**
 * Which words of a group's vocabulary a misspelt query word is read as (DECISIONS.md "Near
 * misses"). The database proposes the closest words by trigram similarity; a proposal is kept only
 * within the edits Elasticsearch's `fuzziness: AUTO` allows, so 'pancreatits' is read as
 * 'pancreatitis' (one edit) and not also as 'pancreas' (three edits, though half its trigrams are
 * shared): a near miss must not widen a rare diagnosis into a common organ.
 */

/** Edits allowed for a word of this many letters: 0 up to 2, 1 up to 5, 2 beyond (AUTO:3,6). */
export function editsAllowed(word: string): number {
  const letters = [...word].length;
  if (letters <= 2) return 0;
  return letters <= 5 ? 1 : 2;
}

/**
 * Edits between two words (insert, delete, substitute, or swap two neighbours: the optimal string
 * alignment distance, as Elasticsearch's default `transpositions: true`), in code points. Stops
 * early: any answer above `max` is `max + 1`.
 */
export function editDistance(a: string, b: string, max: number): number {
  const s = [...a];
  const t = [...b];
  if (Math.abs(s.length - t.length) > max) return max + 1;
  // Three rows of the table: two back (for a swap), the last, this one.
  let before = new Array<number>(t.length + 1).fill(0);
  let last = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i += 1) {
    const row = new Array<number>(t.length + 1).fill(0);
    row[0] = i;
    let rowLeast = row[0];
    for (let j = 1; j <= t.length; j += 1) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(last[j]! + 1, row[j - 1]! + 1, last[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        d = Math.min(d, before[j - 2]! + 1);
      }
      row[j] = d;
      rowLeast = Math.min(rowLeast, d);
    }
    if (rowLeast > max) return max + 1;
    before = last;
    last = row;
  }
  return Math.min(last[t.length]!, max + 1);
}

/**
 * The proposals (closest first) that are within the word's allowed edits, at most `limit` of them;
 * empty when none is, and the word is then searched as itself.
 */
export function nearMissesOf(word: string, proposals: readonly string[], limit: number): string[] {
  const allowed = editsAllowed(word);
  return proposals.filter((p) => p !== word && editDistance(word, p, allowed) <= allowed).slice(0, limit);
}
