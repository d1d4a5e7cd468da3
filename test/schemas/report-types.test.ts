// The report's shape has one source, schemas/report.schema.json: core/types.ts,
// core/evidence.ts, reporters/score.ts and runConformance's options name the types generated
// from it (and from fleet-file.schema.json). The type assertions here are checked by tsc; the runtime
// ones check that every object the schema titles is generated once, and that a real run's report.json
// holds no field the schema does not declare (the schema is open to later versions, so plain
// validation would let an undeclared field through).
import { Ajv2020, type AnySchemaObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { runConformance, type RunOptions } from '../../harness/index.ts';
import type { Delivery, HeaderMap } from '../../core/evidence.ts';
import type { OptionKey, RawOptions } from '../../harness/options.ts';
import { EVIDENCE_MODES, VERDICTS, type RunResult, type VerdictCounts } from '../../core/types.ts';
import { reportDocument, type ReportDocument } from '../../reporters/json-report.ts';
import type {
  ConformanceReport,
  FleetRunOptions,
  ReportDelivery,
  ReportRecordedResponse,
  ReportVerdictCounts,
} from '../../schemas/generated/types.ts';
import { loadSchema } from '../../schemas/registry.ts';
import { OUTPUT_FILE } from '../../scripts/gen-types.ts';

describe('report types (checked by tsc)', () => {
  it('what the JSON reporter writes is a ConformanceReport', () => {
    expectTypeOf<ReportDocument>().toExtend<ConformanceReport>();
    expectTypeOf<RunResult>().toExtend<Omit<ConformanceReport, 'compliance'>>();
  });

  it('the shapes the harness keeps under its own names agree with report.json', () => {
    expectTypeOf<VerdictCounts>().toExtend<ReportVerdictCounts>();
    expectTypeOf<ReportVerdictCounts>().toExtend<VerdictCounts>();
    expectTypeOf<HeaderMap>().toExtend<ReportRecordedResponse['headers']>();
    expectTypeOf<ReportRecordedResponse['headers']>().toExtend<HeaderMap>();
    expectTypeOf<Delivery>().toExtend<ReportDelivery>();
  });

  it('runConformance takes every run option, by the config-file names the fleet file uses', () => {
    expectTypeOf<OptionKey>().toExtend<keyof RunOptions>();
    expectTypeOf<keyof FleetRunOptions>().toExtend<OptionKey>();
    expectTypeOf<Omit<RunOptions, 'reporters' | 'log' | 'progress'>>().toExtend<RawOptions>();
  });
});

type Json = Record<string, unknown>;

/** Every `title` in a schema, nested ones included. */
function titles(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) titles(item, out);
  else if (node !== null && typeof node === 'object') {
    const { title, ...rest } = node as Json;
    if (typeof title === 'string') out.push(title);
    for (const value of Object.values(rest)) titles(value, out);
  }
  return out;
}

/** A copy of a schema where every object that lists its properties refuses any other. */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (node === null || typeof node !== 'object') return node;
  const copy: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closed(v)]));
  if ('properties' in copy && !('additionalProperties' in copy)) copy.additionalProperties = false;
  return copy;
}

describe('report.schema.json generates the report types', () => {
  const generated = readFileSync(OUTPUT_FILE, 'utf8');

  it('declares each titled report object once, under its title', () => {
    const names = titles(loadSchema('report'));
    expect(names).toEqual(expect.arrayContaining(['ConformanceReport', 'ReportCheck', 'ReportTimings']));
    for (const name of names) {
      expect(generated.match(new RegExp(`^export (?:interface|type) ${name}\\b`, 'gm')), name).toHaveLength(
        1,
      );
    }
  });

  it("the harness's value lists are the schema's enums, in its order", () => {
    const defs = loadSchema('report').$defs as Record<string, Json>;
    expect(VERDICTS).toEqual(defs.verdict!.enum);
    expect(EVIDENCE_MODES).toEqual((defs.options!.properties as Record<string, Json>).evidence!.enum);
  });

  it('types an open object by its fields: an index signature only where the schema is free-form', () => {
    const free = JSON.stringify(loadSchema('report')).split('"additionalProperties":true').length - 1;
    const report = generated.slice(generated.indexOf('export interface ConformanceReport'));
    expect(report.match(/\[k: string\]: unknown/g) ?? []).toHaveLength(free);
    expect(free).toBe(1); // the card
  });
});

describe('a real run writes only what report.schema.json declares', () => {
  let document: ReportDocument;
  beforeAll(async () => {
    // An exchange, a stream transcript and a webhook delivery, with every check's evidence kept.
    const only = ['2.2/response-id-equals-request-id', '4.2/stream-content-type-sse', '6.2/user-agent'];
    document = reportDocument(await runConformance({ only, out: null, evidence: 'all', seed: 7, runs: 3 }));
  }, 120_000);

  it('holds an exchange, a stream and a delivery, and no undeclared field', () => {
    const checks = document.requirements.flatMap((r) => r.checks);
    expect(checks.some((c) => c.evidence.exchanges.length > 0)).toBe(true);
    expect(checks.some((c) => c.evidence.streams.length > 0)).toBe(true);
    expect(checks.some((c) => c.evidence.deliveries.length > 0)).toBe(true);
    const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
    addFormatsModule.default(ajv);
    const validate = ajv.compile(closed(loadSchema('report')) as AnySchemaObject);
    const valid = validate(JSON.parse(JSON.stringify(document)));
    expect(validate.errors ?? [], 'fields the schema does not declare').toEqual([]);
    expect(valid).toBe(true);
  });

  it('the closed copy refuses a field the schema does not declare', () => {
    const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
    addFormatsModule.default(ajv);
    const validate = ajv.compile(closed(loadSchema('report')) as AnySchemaObject);
    const extra = JSON.parse(JSON.stringify(document)) as Json & { requirements: Json[] };
    extra.requirements[0]!.undeclared = true;
    expect(validate(extra)).toBe(false);
  });
});
