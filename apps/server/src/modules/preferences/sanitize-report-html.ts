import type sanitizeHtmlModule from 'sanitize-html';
import { onFirstUse } from '../../on-first-use.js';

const sanitizeHtml = onFirstUse<typeof sanitizeHtmlModule>('sanitize-html');

/**
 * Report text (REPORT_TEXT header, footer, disclaimer) is HTML written in the TipTap editor and later
 * put into printed reports and every reader's screen, so it is cleaned when saved: only the tags and
 * attributes TipTap produces survive; scripts, event handlers, javascript: links and foreign styles
 * do not. What a disallowed tag wraps is kept as text (the words a user typed are not lost).
 */

/**
 * Images: our own uploaded assets or inline png/jpeg. Not another site's: it would be fetched by every
 * screen, printout and public share page showing the report (a tracking pixel; security issue §2), and
 * the page's CSP (plugins/web.ts) does not load it anyway.
 */
const IMAGE_SOURCE = /^(\/api\/assets\/[A-Za-z0-9]+|data:image\/(png|jpeg);base64,[A-Za-z0-9+/=\s]+)$/i;

const TEXT_ALIGN = [/^(left|right|center|justify|start|end)$/];
const TEXT_STYLES = {
  'text-align': TEXT_ALIGN,
  'font-size': [/^\d{1,3}(\.\d{1,2})?(px|pt|em|rem|%)$/],
  'font-family': [/^[\w\s,'"-]{1,200}$/],
  color: [/^#[0-9a-f]{3,8}$/i, /^rgba?\(\s*[\d.%\s,/]+\)$/i, /^[a-z]{3,20}$/i],
};
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;

const OPTIONS: sanitizeHtmlModule.IOptions = {
  allowedTags: [
    'p',
    ...HEADINGS,
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'ul',
    'ol',
    'li',
    'table',
    'colgroup',
    'col',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'br',
    'hr',
    'span',
    'img',
  ],
  allowedAttributes: {
    p: ['style'],
    span: ['style'],
    ...Object.fromEntries(HEADINGS.map((h) => [h, ['style']])),
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    img: ['src', 'alt', 'title', 'width', 'height'],
  },
  allowedStyles: {
    p: TEXT_STYLES,
    span: TEXT_STYLES,
    ...Object.fromEntries(HEADINGS.map((h) => [h, { 'text-align': TEXT_ALIGN }])),
  },
  allowedSchemes: ['http', 'https'],
  allowedSchemesByTag: { img: ['data'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  selfClosing: ['img', 'br', 'hr', 'col'],
  // An image whose source is not one of ours or inline png/jpeg is dropped whole.
  exclusiveFilter: (frame) => frame.tag === 'img' && !IMAGE_SOURCE.test(frame.attribs.src ?? ''),
};

/** The tags and attributes that survive (the documents' tests generate HTML from them). */
export const REPORT_HTML_ALLOWED = {
  tags: OPTIONS.allowedTags as readonly string[],
  attributes: OPTIONS.allowedAttributes as Readonly<Record<string, readonly string[]>>,
};

/** The report HTML with only what TipTap produces left in it. */
export function sanitizeReportHtml(html: string): string {
  return sanitizeHtml()(html, OPTIONS);
}
