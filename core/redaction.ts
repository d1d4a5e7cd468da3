// Redaction of the user's secrets (spec 5: API keys and bearer tokens; the values of secret headers; the
// credentials of a proxy or target URL) from everything a report, a log or the console shows. A secret
// is replaced where it stands as a value: a credential header's value, a URL's user information, a
// query value, a JSON member, or a whole token of text; never inside another word, so a one-letter or
// common-word key leaves every other word whole. Values the harness makes up (the webhook secrets its
// checks configure, ids, texts) are no secrets and stay readable. Checks read what the wire carried:
// redaction applies to a check's result once its verdict is decided, never to what it compares.

export const REDACTED = '[redacted]';

/**
 * @deprecated Every secret is redacted whatever its length (as whole tokens only, so a short secret no
 * longer matches inside field names and verdicts). Kept for programs that read it.
 */
export const MIN_SECRET_LENGTH = 1;

// Characters that continue a word: a secret beside one of them is part of another word ("k" in
// "tasks", "api-key", "x_k"), never replaced.
const WORD = /[\p{L}\p{N}\p{M}_-]/u;
// Joiners continue a word only between two word characters ("0.1.0", "tasks/get", "a+b"); elsewhere
// (a full stop that ends a sentence) they bound it. "=" only after a token (base64 padding, "k=v"): a
// "name=" before a value ends the name, so a query value or a form field is a token.
const JOIN_BEFORE = new Set(['.', '/', '+', '~']);
const JOIN_AFTER = new Set(['.', '/', '+', '~', '=']);
// JSON escapes of raw JSON text (`\n`, `\t`, ...): the letter after the backslash is no word.
const JSON_ESCAPE_LETTERS = new Set(['n', 'r', 't', 'b', 'f']);

function isWord(c: string | undefined): boolean {
  return c !== undefined && WORD.test(c);
}

function boundedBefore(text: string, i: number): boolean {
  const c = text[i - 1];
  if (c === undefined) return true;
  if (isWord(c)) return JSON_ESCAPE_LETTERS.has(c) && text[i - 2] === '\\' && text[i - 3] !== '\\';
  if (JOIN_BEFORE.has(c)) return !isWord(text[i - 2]);
  return true;
}

function boundedAfter(text: string, j: number): boolean {
  const c = text[j];
  if (c === undefined) return true;
  if (isWord(c)) return false;
  if (JOIN_AFTER.has(c)) return !isWord(text[j + 1]);
  return true;
}

/** A secret's forms on the wire, longest first: as is, escaped inside a JSON string, percent-encoded. */
function computeSecretForms(secrets: readonly string[]): readonly string[] {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (s.length === 0) continue;
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
    forms.add(encodeURIComponent(s));
  }
  // Longest first so a secret containing another is replaced whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * The forms of a secrets list, computed once per list: lists only grow (secrets are appended as a
 * client is configured), so a list seen before with the same length has the same forms. Redaction runs
 * on every string of every exchange; computing the forms for each string was most of a run's CPU.
 */
const formsOfList = new WeakMap<readonly string[], { length: number; forms: readonly string[] }>();

function secretForms(secrets: readonly string[]): readonly string[] {
  const cached = formsOfList.get(secrets);
  if (cached !== undefined && cached.length === secrets.length) return cached.forms;
  const forms = computeSecretForms(secrets);
  formsOfList.set(secrets, { length: secrets.length, forms });
  return forms;
}

/** Every place `form` stands as a whole token in `text` (a form's own edge that is no word needs no bound). */
function tokenMatches(text: string, form: string): number[] {
  const checkBefore = isWord(form[0]);
  const checkAfter = isWord(form[form.length - 1]);
  const at: number[] = [];
  let i = text.indexOf(form);
  while (i !== -1) {
    const j = i + form.length;
    if ((!checkBefore || boundedBefore(text, i)) && (!checkAfter || boundedAfter(text, j))) {
      at.push(i);
      i = text.indexOf(form, j);
    } else i = text.indexOf(form, i + 1);
  }
  return at;
}

function replaceTokens(text: string, form: string): { text: string; count: number } {
  const at = tokenMatches(text, form);
  if (at.length === 0) return { text, count: 0 };
  let out = '';
  let from = 0;
  for (const i of at) {
    out += text.slice(from, i) + REDACTED;
    from = i + form.length;
  }
  return { text: out + text.slice(from), count: at.length };
}

// `scheme://userinfo@`: the user information of any URL is a credential (a password, or a token given
// as the user name), whoever wrote it; brackets excluded so a redacted one is not matched again.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"'<>\\[\]]+)@/gi;

function redactPiece(text: string, forms: readonly string[]): { text: string; count: number } {
  let count = 0;
  let out = text;
  if (out.includes('://') && out.includes('@')) {
    out = out.replace(URL_USERINFO, (_m, scheme: string) => {
      count += 1;
      return `${scheme}${REDACTED}@`;
    });
  }
  for (const form of forms) {
    if (!out.includes(form)) continue;
    const r = replaceTokens(out, form);
    out = r.text;
    count += r.count;
  }
  return { text: out, count };
}

function redactWithForms(text: string, forms: readonly string[]): { text: string; count: number } {
  // A marker already there stays as it is: a secret such as "redacted" never nests markers.
  if (!text.includes(REDACTED)) return redactPiece(text, forms);
  let count = 0;
  const parts = text.split(REDACTED).map((part) => {
    const r = redactPiece(part, forms);
    count += r.count;
    return r.text;
  });
  return { text: parts.join(REDACTED), count };
}

/** Replaces each secret where it stands as a whole token, and every URL's user information. */
export function redactText(text: string, secrets: readonly string[]): { text: string; count: number } {
  return redactWithForms(text, secretForms(secrets));
}

/** A console or log line, redacted by the same rule. */
export function redactLine(text: string, secrets: readonly string[]): string {
  return redactText(text, secrets).text;
}

// Members whose value is the agent's own data (a parsed body, the agent card): their keys are redacted
// too. The other keys are the report's own field names, which a short secret must never replace.
const AGENT_DATA_MEMBERS = new Set(['json', 'card']);

function redactDeep(value: unknown, forms: readonly string[], keys: boolean): unknown {
  if (typeof value === 'string') return redactWithForms(value, forms).text;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, forms, keys));
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = keys ? redactWithForms(k, forms).text : k;
      out[key] = redactDeep(v, forms, keys || AGENT_DATA_MEMBERS.has(k));
    }
    return out;
  }
  return value;
}

/**
 * Deep copy of a JSON-like value with every secret replaced by `[redacted]` where it stands (Buffers are
 * kept as is). Keys are the report's own field names and stay, except inside the agent's data
 * (`json`, `card` members), or everywhere with `{ keys: true }` (the value is the agent's data).
 */
export function redact<T>(value: T, secrets: readonly string[], options: { keys?: boolean } = {}): T {
  if (secrets.length === 0) return value;
  return redactDeep(value, secretForms(secrets), options.keys ?? false) as T;
}

/** The last pass over a finished result (a RunResult, a fleet's), before any reporter or file sees it. */
export function redactResult<T>(value: T, secrets: readonly string[]): T {
  return redact(value, secrets);
}

// A header whose name says it carries a secret: its value is redacted like the credentials (spec 5),
// whether or not the user marked it secret (--secret-header).
const SECRET_HEADER_NAME = /key|token|secret|auth|session|cookie|password|credential|signature/i;

export function isSecretHeaderName(name: string): boolean {
  return SECRET_HEADER_NAME.test(name);
}

/** `Name: value` as a report or log shows it: the value of a secret header replaced whole. */
export function headerLine(name: string, value: string, secret: boolean): string {
  return `${name}: ${secret || isSecretHeaderName(name) ? REDACTED : value}`;
}

// `Bearer <token>`, `Basic <credentials>`: the scheme stays readable, the credentials go.
const AUTH_SCHEME = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*\s+)\S/;

/**
 * A header's value, token by token; in a credential header (by its name), a value that still begins or
 * ends with a secret (a key with a suffix appended) goes whole, the scheme of `Bearer <token>` kept.
 * A value the harness made up (a wrong key of its own) stays readable.
 */
function redactHeaderValue(
  name: string,
  value: string,
  forms: readonly string[],
): { text: string; count: number } {
  const r = redactWithForms(value, forms);
  if (!isSecretHeaderName(name) || r.text === REDACTED) return r;
  const scheme = AUTH_SCHEME.exec(r.text)?.[1] ?? '';
  const rest = r.text.slice(scheme.length);
  if (rest === REDACTED || !forms.some((f) => rest.startsWith(f) || rest.endsWith(f))) return r;
  return { text: `${scheme}${REDACTED}`, count: r.count + 1 };
}

/** Redacts header values, counting the secrets found. */
export function redactHeaders<H extends Record<string, string | string[]>>(
  headers: H,
  secrets: readonly string[],
): { headers: H; count: number } {
  const forms = secretForms(secrets);
  let count = 0;
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const values = Array.isArray(value) ? value : [value];
    const redacted = values.map((v) => {
      const r = redactHeaderValue(name, v, forms);
      count += r.count;
      return r.text;
    });
    out[name] = Array.isArray(value) ? redacted : (redacted[0] ?? '');
  }
  return { headers: out as H, count };
}

/** Occurrences of the secrets a record's text and headers hold (the `redactions` of its evidence). */
export function countSecrets(
  text: string,
  headers: Record<string, string | string[]>,
  secrets: readonly string[],
): number {
  if (secrets.length === 0) return 0;
  return redactText(text, secrets).count + redactHeaders(headers, secrets).count;
}

/**
 * Where to cut a text kept to `cap` characters so that no form of a secret is cut in two: a cut
 * inside one would leave a prefix that no later pass recognizes.
 */
export function safeCut(text: string, cap: number, secrets: readonly string[]): number {
  if (text.length <= cap) return text.length;
  let cut = cap;
  for (const form of secretForms(secrets)) {
    let i = text.lastIndexOf(form, cut - 1);
    while (i !== -1 && i + form.length > cut) {
      cut = i;
      i = text.lastIndexOf(form, cut - 1);
    }
  }
  return cut;
}

/**
 * The secrets a URL carries: its user information (the password, or a user name given alone, which is
 * then a token) decoded and as written, the Basic credentials made of them, and the values of query
 * parameters whose name says they are a secret (`?api_key=...`, `?token=...`).
 */
export function urlSecrets(text: string): string[] {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [];
  }
  const out: string[] = [];
  const add = (raw: string): void => {
    if (raw === '') return;
    out.push(raw);
    try {
      out.push(decodeURIComponent(raw));
    } catch {
      // a malformed escape: the text as written is the secret
    }
  };
  if (url.password !== '') {
    add(url.password);
    const user = decodeURIComponent(url.username);
    out.push(Buffer.from(`${user}:${decodeURIComponent(url.password)}`).toString('base64'));
  } else add(url.username);
  for (const [name, value] of url.searchParams) if (isSecretHeaderName(name)) add(value);
  return [...new Set(out.filter((s) => s !== ''))];
}

/**
 * A URL without its user information, as a report or a command line shows it (the harness's HTTP
 * client never sends it, so a command without it reproduces the same requests); text that is no URL
 * is returned as it is.
 */
export function withoutUserinfo(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL (a typo in a flag, said back in its refusal): whatever stands between `scheme://` and
    // the last `@` may be a user and password, so it goes.
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/).*@/is, '$1');
  }
  if (parsed.username === '' && parsed.password === '') return url;
  parsed.username = '';
  parsed.password = '';
  // `href` ends a bare origin with "/": keep the URL's own form.
  return url.endsWith('/') ? parsed.href : parsed.href.replace(/\/$/, '');
}
