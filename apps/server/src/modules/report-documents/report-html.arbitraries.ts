import fc from 'fast-check';
import { REPORT_HTML_ALLOWED } from '../preferences/sanitize-report-html.js';

/*
 * Test-only: report HTML generated from the sanitizer's own allow-list (tags, attributes, styles),
 * nested, with empty elements, irregular tables, lists, long words, unicode and entities; and names
 * as a request or a DICOM header may carry them. render-any-html.test.ts renders them.
 */

const TINY_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

const words = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      'Liver',
      'normal',
      'Αλέξανδρος',
      'Иванов',
      'مرحبا',
      '日本語',
      '😀',
      'e\u0301',
      '&amp;',
      '&lt;b&gt;',
      '&nbsp;',
      '&#x1F600;',
      '&#0;',
      '&bogus;',
      ' ',
      '  \n\t ',
      '\u00ad',
      '\u200b',
      '\u0001',
      '\u000b',
      '\ud800',
      '\ufffe',
      '<',
      '>',
      '"',
      "'",
    ),
    weight: 6,
  },
  { arbitrary: fc.string({ maxLength: 12 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 8 }), weight: 2 },
  // One long word: wider than the page and than a table cell.
  { arbitrary: fc.integer({ min: 60, max: 400 }).map((n) => 'W'.repeat(n)), weight: 1 },
);
const text = fc.array(words, { maxLength: 5 }).map((parts) => parts.join(''));

const styleValue = fc.constantFrom(
  'text-align:center',
  'text-align:justify',
  'text-align:end',
  'font-size:0px',
  'font-size:999pt',
  'font-size:12.5em',
  'font-size:100%',
  'font-family:Georgia, serif',
  "font-family:'x'",
  'color:#ff0000',
  'color:#ffffffff',
  'color:rgba(0,0,0,0.5)',
  'color:rgb(300, 300, 300)',
  'color:transparent',
  'color:notacolor',
);
const spanValue = fc.constantFrom('0', '1', '2', '3', '7', '50', '1000', '-1', 'x', '');
const srcValue = fc.constantFrom(
  TINY_PNG,
  'data:image/png;base64,iVBORw0KGgo=',
  'data:image/jpeg;base64,/9j/4AAQ',
  'data:image/png;base64,AAAA',
  'https://cdn.example.com/logo.png',
);
const sizeValue = fc.constantFrom('0', '1', '10', '5000', '-5', 'abc', '50%');

function attributesFor(tag: string): fc.Arbitrary<string> {
  const allowed = REPORT_HTML_ALLOWED.attributes[tag] ?? [];
  if (allowed.length === 0) return fc.constant('');
  const one = fc.constantFrom(...allowed).chain((name) => {
    const value =
      name === 'style'
        ? fc.array(styleValue, { maxLength: 3 }).map((v) => v.join(';'))
        : name === 'colspan' || name === 'rowspan'
          ? spanValue
          : name === 'src'
            ? srcValue
            : name === 'width' || name === 'height'
              ? sizeValue
              : text;
    return value.map((v) => ` ${name}="${v.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`);
  });
  return fc.array(one, { maxLength: 3 }).map((a) => a.join(''));
}

const VOID = new Set(['br', 'hr', 'img', 'col']);
const escapeText = (s: string) => s.replace(/</g, '&lt;');

export const { html: reportHtml } = fc.letrec<{ html: string; node: string; table: string; list: string }>(
  (tie) => ({
    html: fc.array(tie('node'), { maxLength: 4 }).map((nodes) => nodes.join('')),
    // Four levels of elements at most: a report, not a stress test of the layout engine.
    node: fc.oneof(
      { maxDepth: 4, depthIdentifier: 'report-html', withCrossShrink: true },
      text.map(escapeText),
      tie('table'),
      tie('list'),
      fc
        .tuple(fc.constantFrom(...REPORT_HTML_ALLOWED.tags), tie('html'))
        .chain(([tag, inner]) =>
          attributesFor(tag).map((attrs) =>
            VOID.has(tag) ? `<${tag}${attrs} />` : `<${tag}${attrs}>${inner}</${tag}>`,
          ),
        ),
    ),
    // Tables: none, empty or ragged rows, cells spanning past the edge, nested content.
    table: fc
      .array(
        fc.array(
          fc
            .tuple(fc.constantFrom('td', 'th'), attributesFor('td'), tie('html'))
            .map(([tag, attrs, inner]) => `<${tag}${attrs}>${inner}</${tag}>`),
          { maxLength: 4 },
        ),
        { maxLength: 4 },
      )
      .chain((rows) =>
        fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()).map(([thead, colgroup, tbody]) => {
          const trs = rows.map((cells) => `<tr>${cells.join('')}</tr>`);
          const head = thead && trs.length > 0 ? `<thead>${trs.shift()}</thead>` : '';
          const cols = colgroup ? '<colgroup><col /><col /></colgroup>' : '';
          const body = tbody ? `<tbody>${trs.join('')}</tbody>` : trs.join('');
          return `<table>${cols}${head}${body}</table>`;
        }),
      ),
    list: fc
      .tuple(fc.constantFrom('ul', 'ol'), fc.array(tie('html'), { maxLength: 4 }))
      .map(([tag, items]) => `<${tag}>${items.map((i) => `<li>${i}</li>`).join('')}</${tag}>`),
  }),
);

/**
 * What a name may be: anything a request or a DICOM header can carry, metadata injection included
 * (trimmed, as the request schemas and the DICOM reader leave them).
 */
export const documentName = fc
  .oneof(
    text,
    fc.constantFrom(
      'a < b',
      'x</dc:title><dc:creator>evil</dc:creator><dc:title>',
      ']]><![CDATA[',
      '&amp; &lt; &#1;',
      '${title}',
      '"quoted" \'single\'',
    ),
    fc.string({ unit: 'binary', maxLength: 40 }),
  )
  .map((s) => s.trim());
