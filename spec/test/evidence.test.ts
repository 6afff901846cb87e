// What a readiness run's evidence bundle's sha256 covers: the canonical JSON (RFC 8785) of everything but the hash,
// so that layout may change and nothing else may; the spec's own example verifies.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, evidenceDigest, evidenceMismatch, sealEvidence } from "../src/evidence.js";
import { operationById, type JsonObject } from "../src/index.js";

describe("canonicalJson", () => {
  it.each([
    [
      "members sorted by name, at every depth",
      { b: 1, a: { d: [3, { z: 0, y: 1 }], c: null } },
      '{"a":{"c":null,"d":[3,{"y":1,"z":0}]},"b":1}',
    ],
    [
      "names sorted by UTF-16 code units (RFC 8785)",
      { "\u00e9": 1, "\ud83d\ude00": 2, z: 3, A: 4 },
      '{"A":4,"z":3,"é":1,"😀":2}',
    ],
    [
      "strings and numbers as JSON.stringify writes them",
      ['a\n"b"\u0001', 1e21, 0.1, -0, true],
      '["a\\n\\"b\\"\\u0001",1e+21,0.1,0,true]',
    ],
    ["a member left undefined is left out", { a: undefined, b: 2 }, '{"b":2}'],
  ])("%s", (_name, given, want) => {
    expect(canonicalJson(given)).toBe(want);
  });

  it.each([
    ["a non-finite number", Number.NaN],
    ["a function", () => 1],
  ])("refuses %s", (_name, given) => {
    expect(() => canonicalJson(given)).toThrow(TypeError);
  });

  it("is the same for a value however it was laid out, and reads back as that value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 4 }), (value, indent) => {
        const canonical = canonicalJson(value);
        expect(canonicalJson(JSON.parse(JSON.stringify(value, null, indent)))).toBe(canonical);
        expect(canonicalJson(reversed(value))).toBe(canonical);
        expect(JSON.parse(canonical)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe("an evidence bundle's sha256", () => {
  const example = (
    (operationById("getReadinessRunEvidence").operation["responses"] as Record<string, JsonObject>)["200"] as {
      content: { "application/json": { examples: Record<string, { value: JsonObject }> } };
    }
  ).content["application/json"].examples["finished"]?.value;

  it("of the spec's example is the digest of the rest of it", () => {
    expect(example).toBeDefined();
    expect(evidenceMismatch(example)).toBeNull();
    expect(sealEvidence({ run: example?.["run"], observations: example?.["observations"] })).toEqual(example);
  });

  it("does not verify once any value changed, or a member was added or removed", () => {
    const bundle = structuredClone(example) as { run: { verdict: string }; observations: { status: number }[] };
    const changes: [string, (copy: typeof bundle & JsonObject) => void][] = [
      ["the run's verdict", (copy) => void (copy.run.verdict = "passed")],
      ["an observation's status", (copy) => void (copy.observations[1]!.status = 201)],
      ["an observation removed", (copy) => void copy.observations.pop()],
      ["a member added", (copy) => void (copy["note"] = "accepted")],
      ["the hash itself", (copy) => void (copy["sha256"] = "0".repeat(64))],
    ];
    for (const [what, change] of changes) {
      const copy = structuredClone(bundle) as typeof bundle & JsonObject;
      change(copy);
      expect(evidenceMismatch(copy), what).toMatch(/SHA-256|not the/);
    }
  });

  it("covers everything but itself: sealing again gives the same hash", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string().filter((name) => name !== "sha256"),
          fc.jsonValue(),
        ),
        (content) => {
          const sealed = sealEvidence(content);
          expect(evidenceMismatch(sealed)).toBeNull();
          expect(evidenceDigest(sealed)).toBe(evidenceDigest(content));
        },
      ),
    );
  });

  it.each([
    ["not an object", [1, 2], /not a JSON object/],
    ["no sha256", { run: {} }, /no sha256/],
    ["a sha256 in capitals", { sha256: "A".repeat(64) }, /no sha256/],
  ])("names what is wrong with a file that is %s", (_name, given, want) => {
    expect(evidenceMismatch(given)).toMatch(want);
  });
});

/** The value with every object's members in the reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([name, member]) => [name, reversed(member)]),
  );
}
