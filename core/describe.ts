// How a value and a finding read in a report: one value as an assertion shows it (expected,
// actual), and a finding's text without the ids and numbers that vary from one finding to the next
// (root causes and the report's unverified lines group by it).

/** A value as a report line shows it: JSON, cut at 200 characters. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/** Ids, numbers and quoted values vary from one finding to the next; the cause does not. */
export function normalise(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '#')
    .replace(/"[^"]*"/g, '""')
    .replace(/\d+(\.\d+)?/g, '#')
    .slice(0, 100);
}
