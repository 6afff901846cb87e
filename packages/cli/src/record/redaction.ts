// What `lrg record` never writes, and how it makes sure: every secret an exchange carries (credentials, tokens,
// cookies, signatures of signed addresses, passwords in bodies, raw idempotency keys) is replaced where it stands and
// remembered in a ledger; personal data (members the spec marks `x-lrg-personal-data`) is masked; and before the
// file is written the ledger's every value is looked for in the serialized file, in the forms it could take there.
import { createHmac } from "node:crypto";
import { REDACTED } from "@lrg/conformance/drift";
import { PERSONAL_DATA_PATHS } from "@lrg/spec/constants";

/** What stands in the file where a secret was (what `lrg drift` leaves unjudged). */
export { REDACTED };
/** What stands in the file where personal data was. */
export const MASKED = "[personal data]";

/** The kinds of secret the ledger names (in the one line that refuses a file: never the value). */
export type SecretKind =
  | "Authorization credential"
  | "password"
  | "bearer token"
  | "cookie"
  | "signed-address signature"
  | "secret query parameter"
  | "secret header"
  | "secret body member"
  | "Idempotency-Key";

/** A secret the proxy saw, and the exchange it came in (1-based, as the file numbers its entries). */
export interface Secret {
  readonly kind: SecretKind;
  readonly value: string;
  readonly exchange: number;
}

/**
 * Values shorter than this are replaced where they stand but not looked for in the file: a four-letter value would
 * be found in any word that holds it, and every recording would be refused.
 */
export const SHORTEST_SEARCHED = 8;

/** Headers whose values are credentials or secrets (besides the Idempotency-Key, which is hashed). */
const SECRET_HEADER = /authori[sz]ation|cookie|token|secret|api-?key|password|signature|credential|session/i;
/** Query parameters and JSON members whose names say they hold a secret (`signature` of the signed addresses). */
const SECRET_NAME = /pass|token|secret|sig|authori[sz]ation|credential|private|(^|[_-])key$|^key$/i;

/** The ledger of one recording: every secret seen, and the key of the Idempotency-Key hashes. */
export class SecretLedger {
  /** By value: a secret sent again (the same password in every exchange) is kept once, with where it was first seen. */
  readonly #secrets = new Map<string, Secret>();
  readonly #hashKey: Buffer;

  /** `hashKey`: the key of the keyed hash of Idempotency-Key values (random per recording unless given). */
  constructor(hashKey: Buffer) {
    this.#hashKey = hashKey;
  }

  /** Remembers a secret (empty values are not secrets). */
  saw(kind: SecretKind, value: string, exchange: number): void {
    if (value.length > 0 && !this.#secrets.has(value)) this.#secrets.set(value, { kind, value, exchange });
  }

  /**
   * A text with every Idempotency-Key seen so far (of SHORTEST_SEARCHED characters or more) replaced by its hash: an
   * answer may name the key it was sent with (a 409's detail), and the hash keeps that answer readable beside the
   * request's hashed header. A shorter key is left where it stands, as it is not searched for either: replaced, it
   * would be replaced in any word that holds it.
   */
  withKeysHashed(text: string): string {
    let hashed = text;
    for (const { kind, value } of this.#secrets.values())
      if (kind === "Idempotency-Key" && value.length >= SHORTEST_SEARCHED && hashed.includes(value))
        hashed = hashed.split(value).join(this.idempotencyHash(value));
    return hashed;
  }

  get secrets(): readonly Secret[] {
    return [...this.#secrets.values()];
  }

  /** The keyed hash that replaces an Idempotency-Key: the same key always gives the same hash. */
  idempotencyHash(key: string): string {
    return `hmac-sha256:${createHmac("sha256", this.#hashKey).update(key, "utf8").digest("hex")}`;
  }

  /**
   * Who sent a request, as the keyed hash of its Authorization value's user name (Basic) or credential (a token), so
   * that the rules across exchanges tell callers apart (the registry keeps searches, rate limits and notifications
   * per user) while the file holds nothing of the credential.
   */
  callerHash(authorization: string): string {
    const [scheme = "", credential = ""] = authorization.trim().split(/\s+/, 2);
    const decoded = /^basic$/i.test(scheme) ? Buffer.from(credential, "base64").toString("utf8") : undefined;
    const who = decoded === undefined ? authorization.trim() : `Basic ${decoded.split(":", 1)[0] ?? ""}`;
    return this.idempotencyHash(who);
  }
}

/** One HTTP header as HAR keeps it. */
export interface Header {
  readonly name: string;
  readonly value: string;
}

/** Every credential an Authorization value holds: the value, its scheme's credential and, for Basic, the password. */
function sawAuthorization(ledger: SecretLedger, value: string, exchange: number): void {
  ledger.saw("Authorization credential", value, exchange);
  const [scheme = "", credential = ""] = value.trim().split(/\s+/, 2);
  if (/^basic$/i.test(scheme)) {
    ledger.saw("Authorization credential", credential, exchange);
    const decoded = Buffer.from(credential, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    ledger.saw("Authorization credential", decoded, exchange);
    if (colon !== -1) ledger.saw("password", decoded.slice(colon + 1), exchange);
  } else if (/^bearer$/i.test(scheme)) ledger.saw("bearer token", credential, exchange);
  else ledger.saw("Authorization credential", credential, exchange);
}

/** The values of a Cookie header (`a=1; b=2`) or of a Set-Cookie header (`a=1; Path=/`). */
function cookieValues(header: string, set: boolean): string[] {
  const pairs = set ? [header.split(";", 1)[0] ?? ""] : header.split(";");
  return pairs.map((pair) => pair.slice(pair.indexOf("=") + 1).trim());
}

/** Headers as HAR keeps them: secrets replaced (and remembered), the Idempotency-Key hashed, Location redacted. */
export function redactHeaders(headers: readonly Header[], ledger: SecretLedger, exchange: number): Header[] {
  return headers.map(({ name, value }) => {
    const lower = name.toLowerCase();
    if (lower === "idempotency-key") {
      ledger.saw("Idempotency-Key", value, exchange);
      return { name, value: ledger.idempotencyHash(value) };
    }
    if (lower === "authorization" || lower === "proxy-authorization") {
      sawAuthorization(ledger, value, exchange);
      return { name, value: REDACTED };
    }
    if (lower === "cookie" || lower === "set-cookie") {
      ledger.saw("cookie", value, exchange);
      for (const cookie of cookieValues(value, lower === "set-cookie")) ledger.saw("cookie", cookie, exchange);
      return { name, value: REDACTED };
    }
    if (lower === "location" || lower === "content-location")
      return { name, value: redactUrl(value, ledger, exchange) };
    if (SECRET_HEADER.test(lower)) {
      ledger.saw("secret header", value, exchange);
      return { name, value: REDACTED };
    }
    return { name, value };
  });
}

/** A query parameter's value redacted when its name says it is a secret (the signature of a signed address). */
export function redactQueryValue(name: string, value: string, ledger: SecretLedger, exchange: number): string {
  if (!SECRET_NAME.test(name)) return value;
  ledger.saw(/sig/i.test(name) ? "signed-address signature" : "secret query parameter", value, exchange);
  return REDACTED;
}

/**
 * An address with the secrets of its query redacted (`signature=[redacted]`); the rest of it, other parameters
 * included, exactly as given.
 */
export function redactUrl(address: string, ledger: SecretLedger, exchange: number): string {
  const query = address.indexOf("?");
  if (query === -1) return address;
  const hash = address.indexOf("#", query);
  const end = hash === -1 ? address.length : hash;
  const parameters = address
    .slice(query + 1, end)
    .split("&")
    .map((parameter) => {
      const equals = parameter.indexOf("=");
      if (equals === -1) return parameter;
      const [name, value] = [parameter.slice(0, equals), parameter.slice(equals + 1)].map(decodeQueryPart) as [
        string,
        string,
      ];
      return redactQueryValue(name, value, ledger, exchange) === value
        ? parameter
        : `${parameter.slice(0, equals)}=${REDACTED}`;
    });
  return `${address.slice(0, query)}?${parameters.join("&")}${address.slice(end)}`;
}

function decodeQueryPart(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

type Json = null | boolean | number | string | Json[] | { [member: string]: Json };

const pathMatches = (pattern: readonly string[], path: readonly string[]): boolean =>
  pattern.length === path.length && pattern.every((name, index) => name === "*" || name === path[index]);

/** Every string under a value replaced by MASKED (numbers and booleans are kept: their shape, not a person's). */
function mask(value: Json): Json {
  if (typeof value === "string") return MASKED;
  if (Array.isArray(value)) return value.map(mask);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, mask(member)]));
  return value;
}

/**
 * A JSON body as HAR keeps it: members whose name says they hold a secret replaced (their strings remembered),
 * secrets in the query of any address it holds (`upload_url`) redacted, an Idempotency-Key named in a string hashed
 * (`withKeysHashed`), and the members at the spec's personal-data paths masked. `path` is the member names from the
 * body's root (array items share their array's path).
 */
export function redactJson(
  value: Json,
  ledger: SecretLedger,
  exchange: number,
  path: readonly string[] = [],
  personal: readonly (readonly string[])[] = PERSONAL_DATA_PATHS,
): Json {
  if (path.length > 0 && personal.some((pattern) => pathMatches(pattern, path))) return mask(value);
  // An address (absolute, or a path as a problem's `instance`) may carry a signature in its query.
  if (typeof value === "string") {
    const text = ledger.withKeysHashed(value);
    return /^(https?:\/\/|\/)\S*\?/i.test(text) ? redactUrl(text, ledger, exchange) : text;
  }
  if (Array.isArray(value)) return value.map((item) => redactJson(item, ledger, exchange, path, personal));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, member]) => {
      if (SECRET_NAME.test(name) && member !== null && typeof member !== "object") {
        ledger.saw("secret body member", String(member), exchange);
        return [name, REDACTED];
      }
      if (SECRET_NAME.test(name) && member !== null) {
        for (const leaf of leaves(member)) ledger.saw("secret body member", leaf, exchange);
        return [name, REDACTED];
      }
      return [name, redactJson(member, ledger, exchange, [...path, name], personal)];
    }),
  );
}

function leaves(value: Json): string[] {
  if (value === null) return [];
  if (typeof value !== "object") return [String(value)];
  return (Array.isArray(value) ? value : Object.values(value)).flatMap(leaves);
}

/** A form body (`application/x-www-form-urlencoded`) with the secrets of its fields redacted. */
export function redactForm(text: string, ledger: SecretLedger, exchange: number): string {
  return redactUrl(`?${text}`, ledger, exchange).slice(1);
}

/**
 * The forms a secret may take in a HAR file: as it is, escaped in a JSON string, URL-encoded (as a component and
 * as a form field), and base64 (standard and URL-safe alphabets, at each of the three alignments it can have
 * inside a longer base64 text, so that a secret inside an encoded body is found too).
 */
export function searchForms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms = new Set([
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
  ]);
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const first = Math.ceil((offset * 8) / 6);
    const last = Math.floor(((offset + bytes.length) * 8) / 6);
    const fragment = encoded.slice(first, last);
    if (fragment.length === 0) continue;
    forms.add(fragment);
    forms.add(fragment.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...forms].filter((form) => form.length > 0);
}

/** A secret of the ledger still found in a text: which one, and the first form it was found in. */
export interface Leak {
  readonly secret: Secret;
}

/**
 * A search for the ledger's secrets (those of SHORTEST_SEARCHED characters or more, in every form of searchForms):
 * answers the first one a text holds, or undefined. The forms are made once, for many texts.
 */
export function leakFinder(secrets: readonly Secret[]): (text: string) => Leak | undefined {
  const searched = secrets
    .filter((secret) => secret.value.length >= SHORTEST_SEARCHED)
    .map((secret) => ({ secret, forms: searchForms(secret.value) }));
  return (text) => {
    const found = searched.find(({ forms }) => forms.some((form) => text.includes(form)));
    return found === undefined ? undefined : { secret: found.secret };
  };
}

export type { Json };
