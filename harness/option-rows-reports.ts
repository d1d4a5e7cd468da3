// The rows of the option table (harness/option-table.ts) that say what a run leaves: the report
// files, the event stream, the evidence they keep, the expected failures and the exit code's gate.
import { REPORT_FILE_LIST } from '../core/report-files.ts';
import { TEXT, type OptionGroup } from './option-spec.ts';
import { VALUE } from './option-values.ts';

const EVIDENCE = ['all', 'failing', 'none'] as const;

/** Reports and the exit code. */
export const REPORTS = {
  title: 'Reports and the exit code',
  rows: [
    {
      key: 'out',
      arg: '<dir>',
      env: 'A2A_OUT',
      help: `directory for the report files, created if missing and checked before the first request (a file or a place that cannot be written exits 2): ${REPORT_FILE_LIST}`,
      default: './reports',
      schema: TEXT,
      perAgent: true,
      action: {
        description: `Directory for the report files (--out): ${REPORT_FILE_LIST}`,
        default: 'a2a-reports',
      },
      value: VALUE.text,
      composed: 'null (from the API) writes nothing',
    },
    {
      key: 'events',
      arg: '<file>',
      env: 'A2A_EVENTS',
      help: "write the run's events as they happen, one JSON line each (start, plan, each requirement's verdict once decided, status, faults, end) into <file>; - writes them to stdout and the console to stderr",
      schema: TEXT,
      // One stream per run: the agents of a fleet would share one file.
      perAgent: true,
      more: 'Each line validates against `schemas/run-event.schema.json`; [the event stream](reports.md#the-event-stream) describes the events.',
      value: VALUE.text,
      optional: true,
    },
    {
      key: 'evidence',
      arg: '<mode>',
      env: 'A2A_EVIDENCE',
      help: 'wire evidence kept in the reports: all, failing (only of checks that did not pass) or none',
      defaultText: 'failing with --target, all for the bundled server',
      choices: EVIDENCE,
      schema: {
        description: 'Wire evidence kept (default failing with a target, all for the bundled server).',
        enum: EVIDENCE,
      },
      action: {
        description:
          'Wire evidence kept in the reports: all, failing or none (--evidence; default failing with a target)',
      },
      value: VALUE.choice(EVIDENCE),
      composed: 'the default depends on --target',
    },
    {
      key: 'baseline',
      arg: '<file>',
      env: 'A2A_BASELINE',
      help: 'expected failures: an earlier report.json or {"expectedFailures": [ids]}; a new failure or a listed one that now passes exits 1',
      schema: {
        description: "Expected failures; a relative path is read from the fleet file's directory.",
        ...TEXT,
      },
      action: {
        description: 'Expected failures, an earlier report.json or {"expectedFailures":[...]} (--baseline)',
      },
      value: VALUE.text,
      optional: true,
    },
    {
      key: 'failOnUnverified',
      env: 'A2A_FAIL_ON_UNVERIFIED',
      help: "exit 1, not 0, when a MUST requirement was not exercised (the level unverified: a run cut by its budget, --max-turns or the agent's pace), so a CI job reading only the exit code does not pass a run that verified nothing; 1 or true in the variable",
      schema: {
        description: 'Exit 1 when a MUST requirement was not exercised (the level unverified).',
        type: 'boolean',
      },
      action: {
        description: "'true' fails the job when a MUST requirement was not exercised (--fail-on-unverified)",
      },
      value: VALUE.toggle,
    },
  ],
} as const satisfies OptionGroup;
