// Envelope and id echo (spec 2.2, JSON-RPC 2.0 section 5): each variant rewrites one member of the
// JSON-RPC response objects the reference server sends.
import { mutant } from '../define.ts';
import type { Variant } from '../types.ts';

const isError = (body: { error?: unknown }): boolean =>
  body !== null && typeof body === 'object' && 'error' in body;

const variants: Variant[] = [
  mutant({
    breaks: '2.2/response-id-equals-request-id',
    slug: 'error-id-null',
    area: 'envelope',
    description: 'error responses to a readable request carry id null instead of the request id',
    hooks: {
      json: {
        '*': (body, { call }) => {
          if (typeof call.id === 'string' && isError(body)) body.id = null;
        },
      },
    },
  }),
  mutant({
    breaks: '2.2/response-jsonrpc-version',
    slug: 'success-says-1-0',
    area: 'envelope',
    description: 'success responses carry jsonrpc "1.0"',
    hooks: {
      json: {
        '*': (body) => {
          if (body !== null && typeof body === 'object' && 'result' in body) body.jsonrpc = '1.0';
        },
      },
    },
  }),
  mutant({
    breaks: '2.2/result-xor-error',
    slug: 'error-with-result-null',
    area: 'envelope',
    description: 'error responses also carry result null',
    hooks: {
      json: {
        '*': (body) => {
          if (isError(body)) body.result = null;
        },
      },
    },
  }),
];

export default variants;
