// What the `sha256` of a readiness run's evidence bundle covers (`ReadinessEvidence` in sandbox.yaml), written once:
// the gateway seals a bundle with it, and whoever keeps one verifies it with it.
import { createHash } from "node:crypto";

/**
 * The canonical JSON of a JSON value (RFC 8785, JCS): object members sorted by name (by UTF-16 code units), no
 * whitespace, strings and numbers as `JSON.stringify` writes them; a member whose value is `undefined` is left out, as
 * `JSON.stringify` leaves it out. Throws on what JSON cannot hold (a function, a non-finite number).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`${value} is not a JSON number`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${members.map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`).join(",")}}`;
  }
  throw new TypeError(`a ${typeof value} is not a JSON value`);
}

/**
 * The `sha256` of an evidence bundle: the lowercase hexadecimal SHA-256 of the UTF-8 bytes of the canonical JSON of
 * the bundle without its `sha256` member (every other member is covered, those a later version may add included).
 */
export function evidenceDigest(bundle: object): string {
  const { sha256: _ignored, ...content } = bundle as { sha256?: unknown };
  return createHash("sha256").update(canonicalJson(content), "utf8").digest("hex");
}

/** A bundle's content with its `sha256`, first so that a person opening the file sees it first. */
export function sealEvidence<Content extends object>(content: Content): { sha256: string } & Content {
  return { sha256: evidenceDigest(content), ...content };
}

/** Why a bundle does not verify, or null when its `sha256` is the digest of the rest. */
export function evidenceMismatch(bundle: unknown): string | null {
  if (typeof bundle !== "object" || bundle === null || Array.isArray(bundle)) return "it is not a JSON object";
  const stated = (bundle as { sha256?: unknown }).sha256;
  if (typeof stated !== "string" || !/^[0-9a-f]{64}$/.test(stated))
    return "it has no sha256 member of 64 lowercase hexadecimal digits";
  const digest = evidenceDigest(bundle);
  return digest === stated ? null : `its content has the SHA-256 ${digest}, not the ${stated} it states`;
}
