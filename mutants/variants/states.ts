// The task state machine (spec 3, 4.3): illegal transitions, a final state that later changes and
// stale reads, each made by rewriting the statuses the reference server reports.
import { mutant } from '../define.ts';
import type { Variant } from '../types.ts';

const FINAL = new Set(['completed', 'failed', 'canceled']);
/** When each task's cancel was accepted. */
const canceledAt = new Map<string, number>();

const variants: Variant[] = [
  mutant({
    breaks: '3/final-states-terminal',
    slug: 'canceled-then-completed',
    area: 'states',
    description: 'a canceled task reads completed (with a reply) from 250 ms after the cancel on',
    hooks: {
      json: {
        'tasks/cancel': (body) => {
          if (body?.result?.canceled === true) canceledAt.set(body.result.id, Date.now());
        },
        'tasks/get': (body) => {
          const r = body?.result;
          const at = canceledAt.get(r?.id);
          if (at === undefined || Date.now() - at < 250 || r.status?.state !== 'canceled') return;
          const message = {
            role: 'agent',
            messageId: '8f1c1f2e-4c3b-4e1a-9d7e-2b5f0c9a7e11',
            parts: [{ type: 'text', text: 'echo "late"' }],
          };
          r.status = { state: 'completed', message };
        },
      },
    },
  }),
  mutant({
    breaks: '3/new-task-submitted',
    slug: 'first-event-working',
    area: 'states',
    description: 'the first message/stream event of a new task reports working instead of submitted',
    hooks: {
      sseEvent: (payload, ctx) => {
        const s = payload?.result?.status;
        if (ctx.index === 0 && s?.state === 'submitted') {
          s.state = 'working';
          s.progress = { current: 0, total: 1, message: 'step 0 of 1' };
        }
      },
    },
  }),
  mutant({
    breaks: '3/listed-transitions-only',
    slug: 'working-back-to-submitted',
    area: 'states',
    description: 'message/stream sends a submitted event again after the first working event',
    hooks: {
      sseEvent: (payload, ctx) => {
        if (ctx.call.method !== 'message/stream' || payload?.result?.status?.state !== 'working')
          return undefined;
        if (payload.result.status.progress?.current !== 0) return undefined;
        const back = {
          ...payload,
          result: { ...payload.result, status: { state: 'submitted' }, final: false },
        };
        return `data: ${JSON.stringify(payload)}\n\ndata: ${JSON.stringify(back)}\n\n`;
      },
    },
  }),
  mutant({
    breaks: '4.3/get-current-state',
    slug: 'lagging-final-state',
    area: 'states',
    // 5 s, beyond the 2 s the harness gives a finished sample, however slowly a loaded machine polls.
    description: 'tasks/get reports a task that reached a final state less than 5 s ago as still working',
    hooks: {
      json: {
        'tasks/get': (body) => {
          const r = body?.result;
          if (!FINAL.has(r?.status?.state) || Date.now() - Date.parse(r.updatedAt) > 5000) return;
          r.status = { state: 'working', progress: { current: 0, total: 1, message: 'step 0 of 1' } };
        },
      },
    },
  }),
  mutant({
    breaks: '3/system-timeout-reason',
    slug: 'reason-timeout',
    area: 'states',
    description: 'a task canceled by the system timeout carries the reason "timeout"',
    hooks: {
      json: {
        '*': (body) => {
          const s = body?.result?.status;
          if (s?.reason === 'system timeout') s.reason = 'timeout';
        },
      },
      sseEvent: (payload) => {
        const s = payload?.result?.status;
        if (s?.reason === 'system timeout') s.reason = 'timeout';
      },
    },
  }),
];

/** Caught too; left out of the detection test to keep it within its time budget (`npm run mutants -- --extended`). */
const EXTENDED = new Set([
  '4-3-get-current-state--lagging-final-state',
  '3-system-timeout-reason--reason-timeout',
  '3-new-task-submitted--first-event-working',
]);

export const extended = variants.filter((v) => EXTENDED.has(v.name));
export default variants.filter((v) => !EXTENDED.has(v.name));
