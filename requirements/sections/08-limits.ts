// Ledger, section 8 (Limits): limits reported by the card and their enforcement (file size, MIME type,
// message length, rate, concurrency). Webhook timing limits are in 6.5 and 2.11. Data only.
import type { Requirement } from '../types.ts';

export const SECTION_8: readonly Requirement[] = [
  {
    id: '8/file-size-guidance',
    section: '8',
    role: 'service',
    level: 'INFO',
    behaviour: 'Files under 5 MB are advice to clients, and the card maxFileSize is the enforced limit.',
    source: { line: 356, quote: '| File size guidance | keep files under 5 MB | file parts |' },
    rulings: ['C-46'],
    capabilities: ['fileUpload'],
  },
  {
    id: '8/max-file-size',
    section: '8',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'A file whose decoded size exceeds fileUpload.maxFileSize is answered with error -32602 carrying data.limit and data.actual.',
    source: { line: 357, quote: 'reported in bytes by the agent card; example 5242880' },
    rulings: ['C-22'],
    capabilities: ['fileUpload'],
  },
  {
    id: '8/file-supported-types',
    section: '8',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'A file whose mimeType is not in fileUpload.supportedTypes is answered with error -32602 naming its mimeType field.',
    source: { line: 163, quote: '| capabilities.fileUpload.supportedTypes |' },
    rulings: ['C-22'],
    capabilities: ['fileUpload'],
  },
  {
    id: '8/file-upload-unsupported',
    section: '8',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'When fileUpload.supported is false, a message with a file part is answered with error -32602 naming that part.',
    source: { line: 161, quote: '| capabilities.fileUpload.supported |' },
    rulings: ['C-22'],
  },
  {
    id: '8/limits-reported',
    section: '8',
    role: 'service',
    level: 'MUST',
    behaviour:
      'The card reports requestsPerMinute, concurrentTasks and maxMessageLength as positive numbers.',
    source: { line: 364, quote: 'fixed default values for the per-agent limits: not shown' },
    rulings: ['C-46'],
  },
  {
    id: '8/rate-limit-enforced',
    section: '8',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'A request beyond limits.requestsPerMinute within a sliding 60 s window is refused.',
    source: { line: 358, quote: '| limits.requestsPerMinute | number reported per agent | requests |' },
    rulings: ['C-04'],
  },
  {
    id: '8/rate-limit-error-code',
    section: '8',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'A rate-limited request is answered with HTTP 429 and error -32012 carrying data.limit and data.retryAfterSeconds.',
    source: { line: 364, quote: 'Rate-limit enforcement (status, error code, headers, reset behavior)' },
    rulings: ['C-04', 'C-03'],
  },
  {
    id: '8/rate-limit-retry-after',
    section: '8',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'A rate-limited response carries a Retry-After header in seconds.',
    source: { line: 364, quote: 'headers, reset behavior' },
    rulings: ['C-04'],
  },
  {
    id: '8/rate-limit-agent-wide',
    section: '8',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'limits.requestsPerMinute holds for the agent as a whole: requests spread across its replicas beyond it within a sliding 60 s window are refused.',
    source: { line: 358, quote: '| limits.requestsPerMinute | number reported per agent | requests |' },
    rulings: ['C-60', 'C-04'],
  },
  {
    id: '8/concurrent-tasks-cap',
    section: '8',
    role: 'service',
    level: 'MUST',
    behaviour: 'No more than limits.concurrentTasks tasks of an agent are working at once.',
    source: { line: 359, quote: '| limits.concurrentTasks | number reported per agent | running tasks |' },
    rulings: ['C-21'],
  },
  {
    id: '8/concurrent-overflow-queued',
    section: '8',
    role: 'service',
    level: 'INFO',
    behaviour:
      'A task beyond limits.concurrentTasks waits in submitted and starts in arrival order when a slot frees.',
    source: { line: 359, quote: 'running tasks' },
    rulings: ['C-21'],
  },
  {
    id: '8/max-message-length',
    section: '8',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'A message whose text parts hold more code points than limits.maxMessageLength is answered with error -32602 carrying data.limit and data.actual.',
    source: {
      line: 360,
      quote: '| limits.maxMessageLength | number of characters, reported per agent | message text |',
    },
    rulings: ['C-22'],
  },
  {
    id: '8/reference-bounds',
    section: '8',
    role: 'service',
    level: 'INFO',
    behaviour:
      'The reference bounds task-level configurations per agent, the request body size (HTTP 413) and concurrent streams (HTTP 503 with -32603).',
    source: { line: 354, quote: '| Limit | Value | Applies to |' },
    rulings: ['C-42'],
  },
];
