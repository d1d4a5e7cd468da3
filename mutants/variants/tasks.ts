// Task and status shapes, timestamps and final flags (spec 2.7, 2.8, 4.1, 4.3): each variant
// rewrites one member of the task results of message/send or tasks/get.
import { mutant } from '../define.ts';
import type { Variant } from '../types.ts';

/** `2024-06-01T12:00:00.000Z` -> `2024-06-01T12:00:00.000` (the same instant, its zone dropped) */
const dropZone = (t: unknown): unknown => (typeof t === 'string' ? t.replace(/(Z|[+-]\d\d:\d\d)$/, '') : t);

const variants: Variant[] = [
  mutant({
    breaks: '2.7/timestamps-iso8601',
    slug: 'no-time-zone',
    area: 'tasks',
    description: 'tasks/get results carry createdAt and updatedAt without a time zone',
    hooks: {
      json: {
        'tasks/get': (body) => {
          if (body.result === undefined) return;
          body.result.createdAt = dropZone(body.result.createdAt);
          body.result.updatedAt = dropZone(body.result.updatedAt);
        },
      },
    },
  }),
  mutant({
    breaks: '4.3/get-timestamps-ordered',
    slug: 'created-after-updated',
    area: 'tasks',
    description: 'tasks/get results carry a createdAt one hour later than updatedAt',
    hooks: {
      json: {
        'tasks/get': (body) => {
          const r = body.result;
          if (typeof r?.updatedAt === 'string')
            r.createdAt = new Date(Date.parse(r.updatedAt) + 3_600_000).toISOString();
        },
      },
    },
  }),
  mutant({
    breaks: '2.7/updated-at-present',
    slug: 'frozen-at-created',
    area: 'tasks',
    description: 'tasks/get results carry an updatedAt that never moves from createdAt',
    hooks: {
      json: {
        'tasks/get': (body) => {
          const r = body.result;
          if (typeof r?.createdAt === 'string') r.updatedAt = r.createdAt;
        },
      },
    },
  }),
  mutant({
    breaks: '2.7/final-boolean',
    slug: 'final-as-string',
    area: 'tasks',
    description: 'message/send results carry final as the string "true"',
    hooks: {
      json: {
        'message/send': (body) => {
          if (body.result !== undefined) body.result.final = String(body.result.final);
        },
      },
    },
  }),
  mutant({
    breaks: '4.1/send-result-final-true',
    slug: 'final-false',
    area: 'tasks',
    description: 'message/send results carry final false',
    hooks: {
      json: {
        'message/send': (body) => {
          if (body.result !== undefined) body.result.final = false;
        },
      },
    },
  }),
  mutant({
    breaks: '2.8/progress-shape',
    slug: 'current-above-total',
    area: 'tasks',
    description: 'working statuses read by tasks/get report progress.current above progress.total',
    hooks: {
      json: {
        'tasks/get': (body) => {
          const p = body.result?.status?.progress;
          if (p !== undefined) p.current = p.total + 1;
        },
      },
    },
  }),
  mutant({
    breaks: '2.8/progress-only-working',
    slug: 'progress-when-completed',
    area: 'tasks',
    description: 'completed statuses read by tasks/get keep a progress object',
    hooks: {
      json: {
        'tasks/get': (body) => {
          const s = body.result?.status;
          if (s?.state === 'completed') s.progress = { current: 1, total: 1, message: 'done' };
        },
      },
    },
  }),
  mutant({
    breaks: '2.8/error-message',
    slug: 'error-without-message',
    area: 'tasks',
    description: 'failed statuses carry status.error with a code but no message',
    hooks: {
      json: {
        '*': (body) => {
          const s = body?.result?.status;
          if (s?.state === 'failed' && s.error !== undefined) delete s.error.message;
        },
      },
    },
  }),
  mutant({
    breaks: '2.7/context-id-in-get-result',
    slug: 'no-context-id',
    area: 'tasks',
    description: 'tasks/get results leave out contextId',
    hooks: {
      json: {
        'tasks/get': (body) => {
          if (body.result !== undefined) delete body.result.contextId;
        },
      },
    },
  }),
  mutant({
    breaks: '4.1/send-result-states',
    slug: 'failed-as-submitted',
    area: 'tasks',
    description: 'message/send results of a task that failed report state submitted (status.error dropped)',
    hooks: {
      json: {
        'message/send': (body) => {
          const s = body.result?.status;
          if (s?.state === 'failed') {
            s.state = 'submitted';
            delete s.error;
          }
        },
      },
    },
  }),
];

/** Caught too; left out of the detection test to keep it within its time budget (`npm run mutants -- --extended`). */
const EXTENDED = new Set([
  '4-1-send-result-final-true--final-false',
  '2-8-error-message--error-without-message',
  '2-7-context-id-in-get-result--no-context-id',
  '4-1-send-result-states--failed-as-submitted',
  '2-7-final-boolean--final-as-string',
]);

export const extended = variants.filter((v) => EXTENDED.has(v.name));
export default variants.filter((v) => !EXTENDED.has(v.name));
