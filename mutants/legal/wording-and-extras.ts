// Free text and extra members (spec 7: `error.message` is "human-readable text"; `data` extra details;
// C-36: responses may carry fields the spec does not list): other error wording, and extra members in
// every object of every answer, event, card and webhook payload (never the forbidden ones of C-29).
import { eachObject, legal } from '../legal-kit.ts';
import type { LegalVariant } from '../types.ts';

/** Other wording for each error; the meaning is kept where the spec ties text to it (7, note 1). */
const MESSAGES: Record<number, string> = {
  [-32700]: 'Malformed JSON in the request body',
  [-32600]: 'That is not a valid request object',
  [-32601]: 'No such method here',
  [-32602]: 'Some parameters are wrong',
  [-32603]: 'Something went wrong on our side',
  [-32000]: 'No task with that id',
  [-32001]: 'The task has completed already, so it cannot be canceled',
  [-32002]: 'The task was canceled already',
  [-32003]: 'Too late: the task could not be canceled',
  [-32004]: 'This task cannot be streamed',
};

const isError = (o: Record<string, unknown>): boolean =>
  typeof o.code === 'number' && typeof o.message === 'string';

const variants: LegalVariant[] = [
  legal({
    name: 'errors-other-message-wording',
    varies: ['errors.message-wording'],
    description: 'every JSON-RPC error.message is worded differently',
    allowedBy: 'spec 7 (error.message: human-readable text), JSON-RPC 2.0 section 5.1',
    everyJson: (json) =>
      eachObject(json, (o) => {
        if (isError(o)) o.message = MESSAGES[o.code as number] ?? `Request refused (${String(o.code)})`;
      }),
  }),
  legal({
    name: 'errors-other-details-wording',
    varies: ['errors.data-wording'],
    description: 'error.data.details says the same in other words; data.suggestion is other advice',
    allowedBy: 'spec 7 ("error.data.details names it"; "a suggestion"), C-14',
    everyJson: (json) =>
      eachObject(json, (o, key) => {
        if (key !== 'data') return;
        if (typeof o.details === 'string')
          o.details = `The request was refused (${o.details}); please fix it and retry.`;
        if (typeof o.suggestion === 'string') o.suggestion = 'Use a task id this agent gave you recently.';
      }),
  }),
  legal({
    name: 'extra-fields-everywhere',
    varies: ['json.extra-members'],
    description:
      'every object below the JSON-RPC envelope (results, errors, data, parts, card, payloads) has two more members',
    allowedBy: 'C-36 (responses may carry fields the spec does not list)',
    everyJson: (json) =>
      eachObject(json, (o) => {
        if ('jsonrpc' in o) return;
        o.vendorTrace = 'acme-7f3a';
        o.vendorRank = 1;
      }),
  }),
];

export default variants;
