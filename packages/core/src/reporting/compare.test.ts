import { describe, expect, it } from 'vitest';
import { compareReportVersions, diffWords, reportHtmlToText, wordsOf } from './compare.js';

describe('reportHtmlToText', () => {
  it('keeps paragraphs as lines, spaces cells, decodes entities and marks images', () => {
    const html =
      '<h2>Findings</h2><p>Liver&nbsp;is <strong>normal</strong> &amp; smooth.</p>' +
      '<table><tr><td>A</td><td>B</td></tr></table><p><img src="/api/assets/abc"></p>';
    expect(reportHtmlToText(html)).toBe('Findings\nLiver is normal & smooth.\nA B\n[image]');
  });
});

describe('diffWords (issue 7 §2: compare two versions side by side)', () => {
  it('marks the words that were removed and added, keeping the rest', () => {
    const { segments, coarse } = diffWords('The liver is normal in size', 'The liver is enlarged in size');
    expect(coarse).toBe(false);
    expect(segments).toEqual([
      { kind: 'same', text: 'The liver is' },
      { kind: 'removed', text: 'normal' },
      { kind: 'added', text: 'enlarged' },
      { kind: 'same', text: 'in size' },
    ]);
  });

  it('finds words inserted in the middle and text appended at the end', () => {
    const { segments } = diffWords('No focal lesion.', 'No new focal lesion. Impression: normal.');
    expect(segments).toEqual([
      { kind: 'same', text: 'No' },
      { kind: 'added', text: 'new' },
      { kind: 'same', text: 'focal lesion.' },
      { kind: 'added', text: 'Impression: normal.' },
    ]);
  });

  it('keeps line breaks as their own tokens', () => {
    expect(wordsOf('a b\nc')).toEqual(['a', 'b', '\n', 'c']);
    const { segments } = diffWords('Findings\nnormal', 'Findings\nabnormal');
    expect(segments[0]).toEqual({ kind: 'same', text: 'Findings\n' });
  });

  it('shows identical versions as one unchanged run', () => {
    expect(diffWords('same text here', 'same text here').segments).toEqual([
      { kind: 'same', text: 'same text here' },
    ]);
  });

  it('falls back to removed-then-added when the changed middle is too large (capped work)', () => {
    const before = Array.from({ length: 50 }, (_, i) => `a${i}`).join(' ');
    const after = Array.from({ length: 50 }, (_, i) => `b${i}`).join(' ');
    const capped = diffWords(`start ${before} end`, `start ${after} end`, 100);
    expect(capped.coarse).toBe(true);
    expect(capped.segments.map((s) => s.kind)).toEqual(['same', 'removed', 'added', 'same']);
  });

  it('diffs a long report quickly enough for the page', () => {
    const words = Array.from({ length: 1500 }, (_, i) => `w${i % 97}`);
    const edited = [...words];
    edited.splice(700, 5, 'changed', 'here');
    const started = performance.now();
    const { segments, coarse } = diffWords(words.join(' '), edited.join(' '));
    expect(coarse).toBe(false);
    expect(
      segments
        .filter((s) => s.kind === 'added')
        .map((s) => s.text)
        .join(' '),
    ).toContain('changed here');
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('compareReportVersions', () => {
  it('diffs the text of two HTML versions, not their markup', () => {
    const { segments } = compareReportVersions('<p>Mild <em>effusion</em></p>', '<p>Mild effusion</p>');
    expect(segments).toEqual([{ kind: 'same', text: 'Mild effusion' }]);
  });
});
