// Timestamps in other RFC 3339 forms (spec 2.7, 2.13, 6.1, 6.3 "ISO 8601 timestamp"; ruling C-39):
// whole seconds, offsets other than Z, more fraction digits, lower-case `t`/`z`. Every timestamp of
// the reference server (`toISOString()`: UTC, milliseconds) is rewritten in answers, SSE events and
// webhook payloads; whole seconds truncate, so order is kept and changes within a second tie.
import { eachString, legal } from '../legal-kit.ts';
import type { LegalVariant } from '../types.ts';

const ISO_MS = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})\.(\d{3})Z$/;

const ALLOWED = 'spec 2.7 and 6.3 ("ISO 8601 timestamp"), C-39 (any RFC 3339 date-time with a time zone)';

/** `2026-01-02T03:04:05.678Z` at an offset of `minutes`: `2026-01-02T05:04:05.678+02:00`. */
function atOffset(iso: string, minutes: number): string {
  const local = new Date(Date.parse(iso) + minutes * 60_000).toISOString().slice(0, -1);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function retimed(name: string, description: string, form: (iso: string) => string): LegalVariant {
  return legal({
    name,
    varies: ['timestamps.form'],
    description,
    allowedBy: ALLOWED,
    everyJson: (json) => eachString(json, (s) => (ISO_MS.test(s) ? form(s) : s)),
  });
}

const FORMS: Array<(iso: string) => string> = [
  (iso) => iso.replace(/\.\d{3}Z$/, 'Z'),
  (iso) => atOffset(iso, 120),
  (iso) => atOffset(iso, -480),
  (iso) => iso.replace(/Z$/, '123456Z'),
  (iso) => iso.replace('T', 't').replace(/Z$/, 'z'),
  (iso) => atOffset(iso, 0).replace('+00:00', '-00:00'),
];

const variants: LegalVariant[] = [
  retimed('timestamps-whole-seconds', 'timestamps without a fraction: `2026-11-25T07:32:33Z`', FORMS[0]!),
  retimed('timestamps-offset-plus-0200', 'timestamps at +02:00: `2026-11-25T09:32:33.120+02:00`', FORMS[1]!),
  retimed('timestamps-offset-minus-0800', 'timestamps at -08:00: `2026-11-24T23:32:33.120-08:00`', FORMS[2]!),
  retimed(
    'timestamps-nine-fraction-digits',
    'nanosecond digits: `2026-11-25T07:32:33.120123456Z`',
    FORMS[3]!,
  ),
  retimed(
    'timestamps-lower-case-t-z',
    'lower-case separators (RFC 3339 5.6 note): `2026-11-25t07:32:33.120z`',
    FORMS[4]!,
  ),
  (() => {
    let n = 0;
    // Whole seconds are left out: truncating one timestamp and not the next would reorder instants.
    const sameInstant = FORMS.slice(1);
    return retimed(
      'timestamps-mixed-forms',
      'each timestamp in the next of the forms above that keep the instant (and `-00:00`), so one answer mixes them',
      (iso) => sameInstant[(n += 1) % sameInstant.length]!(iso),
    );
  })(),
];

export default variants;
