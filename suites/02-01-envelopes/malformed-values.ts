// JSON values of the wrong type for a field (spec 2.1-2.6, C-14), kept as small descriptions so that
// a fast-check counterexample stays readable in a report: huge strings and deep nesting are built
// from their size only when the request is sent.
import fc from 'fast-check';

export type Junk = { value: unknown } | { huge: number } | { deep: 'array' | 'object'; depth: number };

export function materialize(j: Junk): unknown {
  if ('value' in j) return j.value;
  if ('huge' in j) return 'x'.repeat(j.huge);
  let v: unknown = 0;
  for (let i = 0; i < j.depth; i += 1) v = j.deep === 'array' ? [v] : { a: v };
  return v;
}

// 64 Ki characters: far past any field a client would send, far below the body limits (C-42).
export const arbHuge: fc.Arbitrary<Junk> = fc.integer({ min: 1_000, max: 65_536 }).map((huge) => ({ huge }));
// 1000 levels: deep enough to break a naive recursive validator, within what JSON.parse handles.
export const arbDeep = (shape: 'array' | 'object'): fc.Arbitrary<Junk> =>
  fc.integer({ min: 2, max: 1_000 }).map((depth) => ({ deep: shape, depth }));
export const small = (a: fc.Arbitrary<unknown>): fc.Arbitrary<Junk> => a.map((value) => ({ value }));

export const arbNumber = small(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })));
export const arbBool = small(fc.boolean());
export const arbNull = small(fc.constant(null));
export const arbArray = small(
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), { maxLength: 3 }),
);
export const arbObject = small(fc.dictionary(fc.string({ maxLength: 6 }), fc.integer(), { maxKeys: 3 }));
export const arbString = small(fc.string({ maxLength: 20 }));

/** Values of every JSON type but the expected one. */
export const wrongTypeFor = {
  string: fc.oneof(arbNumber, arbBool, arbNull, arbArray, arbObject, arbDeep('array'), arbDeep('object')),
  object: fc.oneof(arbString, arbNumber, arbBool, arbNull, arbArray, arbDeep('array'), arbHuge),
  array: fc.oneof(arbString, arbNumber, arbBool, arbNull, arbObject, arbDeep('object'), arbHuge),
  boolean: fc.oneof(arbString, arbNumber, arbNull, arbArray, arbObject, arbDeep('array'), arbHuge),
};

export type FieldType = keyof typeof wrongTypeFor;

export function notJson(text: string): boolean {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}
