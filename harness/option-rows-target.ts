// The rows of the option table (harness/option-table.ts) that say which agent is certified and how
// the harness reaches it: the target, its credentials and replicas, TLS, a proxy and extra headers,
// and the webhook capture receiver the agent calls back.
import { TEXT, type OptionGroup } from './option-spec.ts';
import { VALUE } from './option-values.ts';

/** The agent and its credentials. */
export const TARGET = {
  title: 'The agent and its credentials',
  rows: [
    {
      key: 'target',
      arg: '<base_url>',
      env: 'A2A_TARGET',
      help: 'base URL of the service, e.g. https://agents.example.com',
      defaultText: 'the bundled reference server on a free port',
      schema: { type: 'string', pattern: '^https?://' },
      perAgent: true,
      action: {
        description: "The service's base URL (--target); empty certifies the bundled reference server",
      },
      value: VALUE.baseUrl,
      optional: true,
    },
    {
      key: 'agentId',
      arg: '<id>',
      env: 'A2A_AGENT_ID',
      help: 'agent to certify',
      schema: TEXT,
      perAgent: true,
      action: { description: 'The agent to certify (--agent-id)' },
      value: VALUE.text,
      optional: true,
    },
    {
      key: 'apiKey',
      arg: '<key>',
      env: 'A2A_API_KEY',
      help: 'API key sent as x-api-key',
      schema: TEXT,
      perAgent: true,
      secret: true,
      action: { description: 'API key sent as x-api-key (--api-key); pass a secret' },
      value: VALUE.text,
      composed: 'an API key and a bearer token from different layers: the higher layer wins',
    },
    {
      key: 'bearer',
      arg: '<token>',
      env: 'A2A_BEARER',
      help: 'token sent as Authorization: Bearer; given with --api-key, used only to check that both header forms are accepted',
      schema: TEXT,
      perAgent: true,
      secret: true,
      action: { description: 'Token sent as Authorization Bearer (--bearer); pass a secret' },
      value: VALUE.text,
      composed: 'an API key and a bearer token from different layers: the higher layer wins',
    },
    {
      key: 'replica',
      arg: '<url>',
      env: 'A2A_REPLICAS',
      help: 'base URL of one replica of the agent behind --target (repeatable, two or more): the cross-replica checks make a task through one replica and read, cancel, resubscribe to and configure it through the others; without it they are not-applicable',
      repeatable: true,
      schema: {
        description:
          'Base URLs of the replicas behind the balanced target, each reachable on its own; two or more for the cross-replica checks.',
        type: 'array',
        items: { type: 'string', pattern: '^https?://' },
      },
      more: 'The same credentials and headers are sent to every replica. See [Certify a replicated agent](certify-replicas.md).',
      // One agent's replicas: never a run option shared by a fleet's agents.
      perAgent: true,
      value: VALUE.urls,
      as: 'replicas',
      field: true,
      reproduce: true,
    },
  ],
} as const satisfies OptionGroup;

/** The way to the agent: TLS, proxy, headers. */
export const NETWORK = {
  title: 'The way to the agent: TLS, proxy, headers',
  rows: [
    {
      key: 'caCert',
      arg: '<pem>',
      env: 'A2A_CA_CERT',
      help: "PEM bundle of CA certificates trusted for the target's TLS, added to the default roots",
      schema: {
        description:
          "PEM bundle added to the default roots; a relative path is read from the fleet file's directory.",
        ...TEXT,
      },
      action: {
        description:
          "Path of a PEM bundle trusted for the target's TLS, added to the default roots (--ca-cert)",
      },
      value: VALUE.path,
      composed: 'the network settings',
    },
    {
      key: 'insecure',
      env: 'A2A_INSECURE',
      help: "do not verify the target's TLS certificate (development only; every report and the verdict line say so); 1 or true in the variable",
      schema: {
        description: "Do not verify the target's TLS certificate (development only).",
        type: 'boolean',
      },
      action: { description: "'true' skips TLS certificate verification (--insecure; development only)" },
      value: VALUE.toggle,
      composed: 'the network settings',
    },
    {
      key: 'clientCert',
      arg: '<pem>',
      env: 'A2A_CLIENT_CERT',
      help: 'client certificate for a gateway that requires mutual TLS (PEM; may hold the key too)',
      schema: {
        description:
          "Client certificate for mutual TLS; a relative path is read from the fleet file's directory.",
        ...TEXT,
      },
      action: {
        description: 'Path of the client certificate for a gateway that requires mutual TLS (--client-cert)',
      },
      value: VALUE.path,
      composed: 'the network settings',
    },
    {
      key: 'clientKey',
      arg: '<pem>',
      env: 'A2A_CLIENT_KEY',
      help: "the client certificate's private key (PEM)",
      schema: {
        description: "The client certificate's key; a relative path is read from the fleet file's directory.",
        ...TEXT,
      },
      action: { description: 'Path of its private key (--client-key)' },
      value: VALUE.path,
      composed: 'the network settings',
    },
    {
      key: 'proxy',
      arg: '<url>',
      env: 'A2A_PROXY',
      help: 'forward proxy for every request to the target, loopback included; overrides HTTPS_PROXY, HTTP_PROXY and NO_PROXY',
      defaultText: 'HTTPS_PROXY / HTTP_PROXY with NO_PROXY, never for loopback',
      schema: { type: 'string', pattern: '^https?://' },
      action: {
        description:
          "Forward proxy for every request to the target (--proxy); without it the runner's HTTPS_PROXY / HTTP_PROXY / NO_PROXY apply",
      },
      value: VALUE.proxyUrl,
      composed: 'the network settings, with HTTPS_PROXY, HTTP_PROXY and NO_PROXY',
    },
    {
      key: 'header',
      arg: '<"Name: value">',
      env: 'A2A_HEADERS',
      help: 'header sent on every request to the target, e.g. "X-Tenant: acme"; a value whose name says key, token, secret, auth, session or cookie is redacted. The harness\'s own headers win: x-api-key, Authorization, Content-Type and Accept are refused, and a header a check sets for one request replaces this one there',
      repeatable: true,
      lines: true,
      schema: {
        description:
          "Headers sent on every request to the target, `Name: value`. A secret value belongs in the agent's secretHeadersEnv, not here.",
        oneOf: [
          { type: 'array', items: { type: 'string', pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+:" } },
          { type: 'object', additionalProperties: { type: 'string' } },
        ],
      },
      action: {
        description: "Headers sent on every request to the target, one 'Name: value' a line (--header)",
      },
      value: VALUE.headers,
      composed: 'the network settings',
    },
    {
      key: 'secretHeader',
      arg: '<"Name: value">',
      env: 'A2A_SECRET_HEADERS',
      help: 'as --header, its value redacted in every report and log whatever its name',
      repeatable: true,
      lines: true,
      schema: { type: 'array', items: TEXT },
      // Set per agent from secretHeadersEnv: a secret is never written in the fleet file.
      perAgent: true,
      // Masked line by line by action.yml's certify step (a multi-line mask would print its tail).
      action: {
        description:
          "Headers whose values are secret, one 'Name: value' a line (--secret-header); pass a secret",
      },
      value: VALUE.headers,
      composed: 'the network settings',
    },
  ],
} as const satisfies OptionGroup;

/** The webhook capture receiver. */
export const WEBHOOKS = {
  title: 'The webhook capture receiver',
  rows: [
    {
      key: 'webhookListen',
      arg: '<host:port>',
      env: 'A2A_WEBHOOK_LISTEN',
      help: 'address of the webhook capture receiver',
      default: '127.0.0.1:0',
      schema: { description: 'host:port of the webhook capture receiver (default 127.0.0.1:0).', ...TEXT },
      action: { description: 'host:port of the webhook capture receiver (--webhook-listen)' },
      value: VALUE.hostPort,
    },
    {
      key: 'webhookPublicUrl',
      arg: '<url>',
      env: 'A2A_WEBHOOK_PUBLIC_URL',
      help: 'URL the target must use to reach the receiver (behind NAT or in CI)',
      schema: TEXT,
      action: { description: 'URL the target must call to reach that receiver (--webhook-public-url)' },
      value: VALUE.baseUrl,
      optional: true,
    },
  ],
} as const satisfies OptionGroup;
