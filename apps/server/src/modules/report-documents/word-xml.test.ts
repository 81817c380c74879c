import { describe, expect, it } from 'vitest';
import { markScripts } from './word-document.js';
import { readLightXml, writeLightXml } from './word-xml.js';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const body = (paragraphs: string) =>
  `${DECLARATION}<w:document ${W}><w:body>${paragraphs}</w:body></w:document>`;

describe('the light reading of word/document.xml', () => {
  it('writes an untouched part back as it was', () => {
    const xml = body(
      '<w:p><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">a &amp; b &lt; c</w:t></w:r></w:p>',
    );
    const light = readLightXml(xml)!;
    expect(writeLightXml(light.declaration, light.root)).toBe(xml);
  });

  it.each([
    ['a comment', '<!-- c --><w:p/>'],
    ['CDATA', '<w:p><w:r><w:t><![CDATA[x]]></w:t></w:r></w:p>'],
    ['a character reference', '<w:p><w:r><w:t>&#x5D0;</w:t></w:r></w:p>'],
    ['an unknown entity', '<w:p><w:r><w:t>&foo;</w:t></w:r></w:p>'],
    ['an empty element written open and closed', '<w:p></w:p>'],
    ['a single-quoted attribute', "<w:p w:x='1'/>"],
    ['a space before />', '<w:p />'],
    ['a carriage return', '<w:p><w:r><w:t>a\r\nb</w:t></w:r></w:p>'],
    ['a > in text', '<w:p><w:r><w:t>a > b</w:t></w:r></w:p>'],
    ['tags that do not nest', '<w:p><w:r></w:p></w:r>'],
  ])('leaves %s to jsdom', (_, paragraphs) => {
    expect(readLightXml(body(paragraphs))).toBeNull();
  });

  it('marks as the jsdom pass does (a comment sends the same part there)', () => {
    const paragraphs =
      '<w:p><w:pPr/><w:r><w:rPr><w:b w:val="0"/><w:rFonts w:ascii="Arial" w:cs="X"/></w:rPr>' +
      '<w:t xml:space="preserve">שלום &amp; </w:t></w:r><w:r><w:rPr/><w:t>日本&lt;</w:t></w:r></w:p>' +
      '<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>नमस्ते</w:t></w:r></w:p>';
    const [light, dom] = [new Map<string, string>(), new Map<string, string>()];
    const [lightBold, domBold] = [new Map<string, string>(), new Map<string, string>()];
    expect(readLightXml(body(paragraphs)), 'read lightly').not.toBeNull();
    const marked = markScripts(body(paragraphs), light, lightBold);
    const viaJsdom = markScripts(body(`${paragraphs}<!--c-->`), dom, domBold);
    expect(marked).toContain('<w:pPr><w:bidi/></w:pPr>');
    expect(marked).toContain('<w:rFonts w:ascii="Arial" w:cs="Noto Sans Hebrew"/><w:rtl/>');
    expect(marked).toContain('<w:rPr><w:rFonts w:cs="Noto Sans Devanagari"/><w:b/><w:bCs/></w:rPr>');
    expect(viaJsdom).toBe(marked.replace('</w:body>', '<!--c--></w:body>'));
    expect([...light]).toEqual([...dom]);
    expect([...lightBold]).toEqual([...domBold]);
  });
});
