/*
 * A light reading of word/document.xml for `markScripts` (word-document.ts): the elements as a tree
 * over the text, edited in place (children added, attributes set) and written back as jsdom's
 * XMLSerializer writes them. jsdom built a DOM of the whole part and serialized it again: on a long
 * report (hundreds of KB of XML) that was a third of the Word file's time. Untouched elements are
 * copied as they were written; the converter writes what jsdom's serializer writes (the same
 * bytes came back from a jsdom round trip of every generated test document), so the part is the
 * same either way. Anything this reading does not expect (comments, CDATA, a doctype, processing
 * instructions past the declaration, an unknown entity, a carriage return, a character XML cannot
 * hold, tags that do not nest) returns null and the caller uses jsdom.
 */

/** What `markScripts` asks of an element: a subset of the DOM's Element, which jsdom's also gives. */
export interface TXmlElement {
  readonly tagName: string;
  readonly localName: string;
  readonly namespaceURI: string | null;
  readonly firstElementChild: TXmlElement | null;
  readonly nextElementSibling: TXmlElement | null;
  readonly textContent: string | null;
  readonly ownerDocument: { createElementNS(namespace: string | null, name: string): TXmlElement };
  getAttribute(name: string): string | null;
  setAttributeNS(namespace: string | null, name: string, value: string): void;
  insertBefore(node: TXmlElement, child: TXmlElement | null): unknown;
}

class Unexpected extends Error {}

const ENTITY = /&(?:#x([0-9a-fA-F]+)|#(\d+)|(lt|gt|amp|quot|apos));|&/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** Characters XML 1.0 cannot hold, and a carriage return (which the parser would turn into LF). */
const NOT_PLAIN_XML = /[^\t\n\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

function decode(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(ENTITY, (match, hex?: string, decimal?: string, name?: string) => {
    if (name) return NAMED[name]!;
    if (hex === undefined && decimal === undefined) throw new Unexpected(match);
    const point = hex !== undefined ? parseInt(hex, 16) : Number(decimal);
    const char = point <= 0x10ffff ? String.fromCodePoint(point) : '';
    if (char === '' || NOT_PLAIN_XML.test(char) || char === '\r') throw new Unexpected(match);
    return char;
  });
}

/** An attribute value as the serializer writes it (w3c-xmlserializer: & " < > escaped). */
const escapeAttribute = (value: string) =>
  value.replace(/[&"<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c]!);

class LightDocument {
  constructor(readonly source: string) {}
  createElementNS(namespace: string | null, name: string): LightElement {
    return new LightElement(this, name, namespace, -1, -1, '');
  }
}

class LightElement implements TXmlElement {
  parent: LightElement | null = null;
  /** Where it is in its parent's content. */
  index = -1;
  /** Child elements and text (as written), in order. */
  content: Array<LightElement | string> = [];
  /** Where the element is written in the source (-1 for one made here). */
  end = -1;
  /** This element or one inside it was changed: it is written anew, not copied. */
  changed: boolean;
  private attributes: Array<[string, string]> | null = null;

  constructor(
    readonly ownerDocument: LightDocument,
    readonly tagName: string,
    readonly namespaceURI: string | null,
    readonly start: number,
    end: number,
    /** The start tag's attributes as written (` a="1" b="2"`). */
    private readonly rawAttributes: string,
  ) {
    this.end = end;
    this.changed = start < 0;
  }

  get localName(): string {
    return this.tagName.slice(this.tagName.indexOf(':') + 1);
  }

  private elementAt(from: number, step: 1, list: Array<LightElement | string>): LightElement | null {
    for (let i = from; i < list.length; i += step) {
      const item = list[i]!;
      if (typeof item !== 'string') return item;
    }
    return null;
  }

  get firstElementChild(): LightElement | null {
    return this.elementAt(0, 1, this.content);
  }

  get nextElementSibling(): LightElement | null {
    return this.parent ? this.elementAt(this.index + 1, 1, this.parent.content) : null;
  }

  get textContent(): string {
    return this.content.map((item) => (typeof item === 'string' ? decode(item) : item.textContent)).join('');
  }

  private attributeList(): Array<[string, string]> {
    if (!this.attributes) {
      this.attributes = [];
      for (const [, name, , double, single] of this.rawAttributes.matchAll(
        /([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g,
      )) {
        const raw = double ?? single ?? '';
        if (/[\t\n\r<]/.test(raw)) throw new Unexpected(raw);
        this.attributes.push([name!, decode(raw)]);
      }
    }
    return this.attributes;
  }

  getAttribute(name: string): string | null {
    return this.attributeList().find(([n]) => n === name)?.[1] ?? null;
  }

  setAttributeNS(_namespace: string | null, name: string, value: string): void {
    const list = this.attributeList();
    const local = name.slice(name.indexOf(':') + 1);
    const existing = list.find(([n]) => n.slice(n.indexOf(':') + 1) === local);
    if (existing && existing[0] !== name) throw new Unexpected(existing[0]);
    if (existing) existing[1] = value;
    else list.push([name, value]);
    this.touch();
  }

  insertBefore(node: TXmlElement, child: TXmlElement | null): TXmlElement {
    const made = node as LightElement;
    if (!this.tagName.startsWith('w:') || !made.changed) throw new Unexpected(this.tagName);
    const before = child as LightElement | null;
    if (before && before.parent !== this) throw new Unexpected(this.tagName);
    const at = before ? before.index : this.content.length;
    this.content.splice(at, 0, made);
    made.parent = this;
    for (let i = at; i < this.content.length; i++) {
      const item = this.content[i]!;
      if (typeof item !== 'string') item.index = i;
    }
    this.touch();
    return made;
  }

  /** Marks this element and those around it to be written anew. */
  private touch(): void {
    this.changed = true;
    for (let at = this.parent; at; at = at.parent) at.changed = true;
  }

  write(out: string[]): void {
    if (!this.changed) {
      out.push(this.ownerDocument.source.slice(this.start, this.end));
      return;
    }
    out.push(`<${this.tagName}`);
    if (this.attributes)
      for (const [name, value] of this.attributes) out.push(` ${name}="${escapeAttribute(value)}"`);
    else out.push(this.rawAttributes);
    if (this.content.length === 0) {
      out.push('/>');
      return;
    }
    out.push('>');
    for (const item of this.content) {
      if (typeof item === 'string') out.push(item);
      else item.write(out);
    }
    out.push(`</${this.tagName}>`);
  }
}

const DECLARATION = /^<\?xml[^>]*\?>\s*/u;
/**
 * Text and attributes as the serializer writes them, so that a copy of the source is what jsdom
 * would write: text escapes `&`, `<` and `>` and nothing else; an attribute is one space, the name,
 * `=` and a double-quoted value escaping `&`, `"`, `<` and `>` (with no tab or line feed, which a
 * parser reads as a space). Anything else goes to jsdom.
 */
const NOT_WRITTEN_TEXT = />|&(?!amp;|lt;|gt;)/;
const WRITTEN_ATTRIBUTES = /^(?: [^\s=/>"']+="(?:[^&<>"\t\n]|&(?:amp|lt|gt|quot);)*")*$/;
const TAG = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;

/**
 * The XML's root element read as a light tree, and its declaration; null when unexpected. Reading
 * an attribute or a text later may still find it unexpected: `isUnexpected` tells that error.
 */
export function readLightXml(xml: string): { declaration: string; root: TXmlElement } | null {
  if (NOT_PLAIN_XML.test(xml) || xml.includes('\r') || xml.includes(']]>')) return null;
  try {
    const declaration = DECLARATION.exec(xml)?.[0] ?? '';
    const doc = new LightDocument(xml);
    const stack: LightElement[] = [];
    let root: LightElement | null = null;
    let at = declaration.length;
    while (at < xml.length) {
      const lt = xml.indexOf('<', at);
      const textEnd = lt < 0 ? xml.length : lt;
      if (textEnd > at) {
        const text = xml.slice(at, textEnd);
        if (NOT_WRITTEN_TEXT.test(text)) return null;
        const parent = stack.at(-1);
        if (parent) parent.content.push(text);
        else if (!/^[ \t\n]*$/.test(text)) return null;
      }
      if (lt < 0) break;
      TAG.lastIndex = lt;
      const tag = TAG.exec(xml);
      if (!tag) return null;
      const [whole, closing, name, attributes, selfClosing] = tag as unknown as [
        string,
        string,
        string,
        string,
        string,
      ];
      at = lt + whole.length;
      if (closing) {
        const open = stack.pop();
        // An empty element written open and closed would be written back as `<a/>`.
        if (!open || open.tagName !== name || attributes || selfClosing || open.content.length === 0)
          return null;
        open.end = at;
        continue;
      }
      const written = 2 + name.length + attributes.length + selfClosing.length;
      if (whole.length !== written || !WRITTEN_ATTRIBUTES.test(attributes)) return null;
      if (root && stack.length === 0) return null;
      const element = new LightElement(doc, name, null, lt, selfClosing ? at : -1, attributes);
      const parent = stack.at(-1);
      if (parent) {
        element.parent = parent;
        element.index = parent.content.length;
        parent.content.push(element);
      } else root = element;
      if (!selfClosing) stack.push(element);
    }
    if (!root || stack.length > 0) return null;
    return { declaration, root };
  } catch (error) {
    if (error instanceof Unexpected) return null;
    throw error;
  }
}

/** The light tree written back (with its declaration). */
export function writeLightXml(declaration: string, root: TXmlElement): string {
  const out = [declaration];
  (root as LightElement).write(out);
  return out.join('');
}

export function isUnexpected(error: unknown): boolean {
  return error instanceof Unexpected;
}
