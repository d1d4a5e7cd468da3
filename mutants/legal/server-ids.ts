// Server-made ids in other formats (spec 2.7 `id`, `contextId`; 2.12 `configId`; 2.3 `messageId` of
// the agent's reply; 6.2 `<delivery-id>`): the spec asks only for strings, unique where they must be.
// The proxy maps each id of the reference server to an opaque one on the way out and back on the way
// in, consistently in answers, SSE events, webhook payloads and requests.
import { randomBytes } from 'node:crypto';
import { eachObject, eachString, legal, type LegalSpec } from '../legal-kit.ts';
import type { LegalVariant } from '../types.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** One kind of server-made id: the members that carry it and the opaque form it takes. */
interface IdKind {
  keys: string[];
  make(n: number): string;
}

/**
 * A two-way map between the reference server's ids (UUIDs) of the given kinds and opaque ids. An id
 * the client sent first (a client-chosen task id, C-16; a contextId it made up) is never mapped.
 */
class OpaqueIds {
  private readonly out = new Map<string, string>();
  private readonly back = new Map<string, string>();
  private readonly fromClient = new Set<string>();
  private count = 0;

  constructor(private readonly kind: IdKind) {}

  /** A request: remember what the client said, then put the server's ids back. */
  inbound(json: unknown): void {
    eachString(json, (s) => {
      const upstream = this.back.get(s);
      if (upstream === undefined) this.fromClient.add(s);
      return upstream ?? s;
    });
  }

  /** Anything the server sends: new ids of the kind get an opaque form; known ones are replaced. */
  outbound(json: unknown): void {
    eachObject(json, (o, parentKey) => {
      for (const key of this.kind.keys) {
        // `id` names a task only in a task object (one with a status), never the JSON-RPC id.
        if (key === 'id' && !('status' in o && parentKey !== undefined)) continue;
        const v = o[key];
        if (typeof v === 'string' && /^[0-9a-f-]{36}$/.test(v) && !this.fromClient.has(v)) this.opaque(v);
      }
    });
    eachString(json, (s) => s.replace(UUID, (id) => this.out.get(id) ?? id));
  }

  private opaque(upstream: string): void {
    if (this.out.has(upstream)) return;
    this.count += 1;
    const id = this.kind.make(this.count);
    this.out.set(upstream, id);
    this.back.set(id, upstream);
  }
}

const rand = (n: number): string => randomBytes(n).toString('base64url');

function opaqueIds(spec: Omit<LegalSpec, 'everyJson' | 'request'>, kind: IdKind): LegalVariant {
  const ids = new OpaqueIds(kind);
  return legal({
    ...spec,
    everyJson: (json) => ids.outbound(json),
    request: (json) => ids.inbound(json),
  });
}

const ALLOWED = 'spec 2.7, 2.12, 2.3 (ids are strings; no format given); C-16';

const variants: LegalVariant[] = [
  opaqueIds(
    {
      name: 'ids-task-opaque',
      varies: ['ids.task-id'],
      description: 'task ids are `tsk_<counter>_<random base64url>`, not UUIDs',
      allowedBy: ALLOWED,
    },
    { keys: ['id', 'taskId'], make: (n) => `tsk_${n.toString(36)}_${rand(9)}` },
  ),
  opaqueIds(
    {
      name: 'ids-context-opaque',
      varies: ['ids.context-id'],
      description: 'context ids are `conversation:<counter>`, not UUIDs',
      allowedBy: ALLOWED,
    },
    { keys: ['contextId'], make: (n) => `conversation:${n}` },
  ),
  opaqueIds(
    {
      name: 'ids-config-opaque',
      varies: ['ids.config-id'],
      description: 'webhook configuration ids are `pnc.<random hex>`, not UUIDs',
      allowedBy: ALLOWED,
    },
    { keys: ['configId'], make: () => `pnc.${randomBytes(6).toString('hex')}` },
  ),
  opaqueIds(
    {
      name: 'ids-reply-message-opaque',
      varies: ['ids.reply-message-id'],
      description: "the messageId of the agent's replies is `msg-<counter>`, not a UUID",
      allowedBy: 'spec 2.3 (messageId: UUID v4 is required of the client message only)',
    },
    { keys: ['messageId'], make: (n) => `msg-${n}` },
  ),
  (() => {
    const ids = new Map<string, string>();
    return legal({
      name: 'webhook-delivery-id-sequence',
      varies: ['webhook.delivery-id'],
      description: 'X-Webhook-Delivery is `dlv_<sequence>`, stable per event across retries, not a UUID',
      allowedBy: 'spec 6.2 (`<delivery-id>`; use for idempotency)',
      relay: {
        rewrite(a) {
          const original = a.headers['x-webhook-delivery'];
          if (original === undefined) return;
          if (!ids.has(original)) ids.set(original, `dlv_${ids.size + 1}`);
          a.headers['x-webhook-delivery'] = ids.get(original)!;
        },
      },
    });
  })(),
];

export default variants;
