/*
 * Comparing two versions of a report (issue 7 §2 "two versions can be compared side by side"): the
 * text of both HTML versions, diffed word by word. A small LCS is enough for reports; the common
 * start and end are taken off first (an edit usually touches a few lines), and the middle is capped
 * so a huge report never blocks the page.
 */

/** One run of words: in both versions, only in the newer one, or only in the older one. */
export interface TDiffSegment {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

export interface TWordDiff {
  segments: TDiffSegment[];
  /** The changed middle was too large to diff word by word: it is shown as removed then added. */
  coarse: boolean;
}

/** Cells of the LCS table at most (4 bytes each): 2 000 000 cells = 8 MB, well under 100 ms. */
export const DIFF_MAX_CELLS = 2_000_000;

const ENTITIES: Record<string, string> = {
  '&nbsp;': ' ',
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&apos;': "'",
};

/**
 * The readable text of report HTML: block ends become line breaks, cells are spaced, images read as
 * "[image]", tags go, the usual entities are decoded.
 */
export function reportHtmlToText(html: string): string {
  return html
    .replace(/<img\b[^>]*>/gi, ' [image] ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|h[1-6]|li|tr|div|blockquote)>/gi, '\n')
    .replace(/<\/t[dh]>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&[a-z]+;|&#\d+;/gi, (e) => ENTITIES[e.toLowerCase()] ?? e)
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

/** Words, with each line break kept as a token of its own so paragraphs survive the diff. */
export function wordsOf(text: string): string[] {
  return text
    .split(/( ?\n ?| )/)
    .filter((t) => t !== '' && t !== ' ')
    .map((t) => (t.includes('\n') ? '\n' : t));
}

function joinWords(words: readonly string[]): string {
  let out = '';
  for (const w of words) {
    if (w === '\n' || out === '' || out.endsWith('\n')) out += w;
    else out += ` ${w}`;
  }
  return out;
}

/** Word-level LCS of the middle parts: the edit script as (kind, word) pairs. */
function lcsScript(a: readonly string[], b: readonly string[]): Array<[TDiffSegment['kind'], string]> {
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  // table[i][j] = LCS length of a[i..] and b[j..].
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] =
        a[i] === b[j]
          ? (table[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * width + j] ?? 0, table[i * width + j + 1] ?? 0);
    }
  }
  const script: Array<[TDiffSegment['kind'], string]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      script.push(['same', a[i] as string]);
      i++;
      j++;
    } else if ((table[(i + 1) * width + j] ?? 0) >= (table[i * width + j + 1] ?? 0)) {
      script.push(['removed', a[i] as string]);
      i++;
    } else {
      script.push(['added', b[j] as string]);
      j++;
    }
  }
  for (; i < n; i++) script.push(['removed', a[i] as string]);
  for (; j < m; j++) script.push(['added', b[j] as string]);
  return script;
}

/** The word diff of two texts (older `before`, newer `after`). */
export function diffWords(before: string, after: string, maxCells = DIFF_MAX_CELLS): TWordDiff {
  const a = wordsOf(before);
  const b = wordsOf(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const coarse = (midA.length + 1) * (midB.length + 1) > maxCells;
  const runs: Array<[TDiffSegment['kind'], string[]]> = [];
  const add = (kind: TDiffSegment['kind'], word: string) => {
    const last = runs[runs.length - 1];
    if (last && last[0] === kind) last[1].push(word);
    else runs.push([kind, [word]]);
  };
  for (const w of a.slice(0, start)) add('same', w);
  if (coarse) {
    for (const w of midA) add('removed', w);
    for (const w of midB) add('added', w);
  } else {
    for (const [kind, w] of lcsScript(midA, midB)) add(kind, w);
  }
  for (const w of a.slice(endA)) add('same', w);
  return { segments: runs.map(([kind, words]) => ({ kind, text: joinWords(words) })), coarse };
}

/** The diff of two report HTML versions (older first). */
export function compareReportVersions(beforeHtml: string, afterHtml: string): TWordDiff {
  return diffWords(reportHtmlToText(beforeHtml), reportHtmlToText(afterHtml));
}
