// XML text helpers for junit.xml and badge.svg: escaping, and removal of the characters XML 1.0
// cannot carry at all (control characters, lone surrogates), which wire evidence may contain.

// XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. Control
// characters are the point of this pattern, hence the lint exception.
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Characters XML cannot carry become U+FFFD, so a finding about them stays visible. */
export function xmlSafe(text: string): string {
  return text.replace(NOT_XML_CHAR, '\uFFFD');
}

export function escapeXml(text: string): string {
  return xmlSafe(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Attribute values also keep their line breaks (a parser would fold raw ones into spaces). */
export function escapeAttr(text: string): string {
  return escapeXml(text).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

export function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`)
    .join('');
}
