// JSON values as they come off the wire (spec 2: every request, response, event and webhook payload is
// JSON): the one test for "a JSON object", shared by the reference server, the harness, the suites
// and the mutants.

export type JsonObject = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
