// The pieces of lrg record's redaction, one case each: what an address, a header list and a JSON body become, and
// the forms a secret is searched for in (so that a secret inside a longer base64 text is found too).
import { describe, expect, it } from "vitest";
import {
  leakFinder,
  MASKED,
  redactHeaders,
  redactJson,
  redactUrl,
  REDACTED,
  SecretLedger,
} from "../src/record/redaction.js";

const ledger = () => new SecretLedger(Buffer.from("test key"));

describe("redactUrl", () => {
  it.each([
    [
      "a signed upload address",
      "http://h/v0/uploads/d?expires=1&signature=abc123",
      "http://h/v0/uploads/d?expires=1&signature=[redacted]",
    ],
    [
      "a pre-signed store address",
      "/x?X-Amz-Credential=a%2Fb&X-Amz-Signature=ff&part=1",
      "/x?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]&part=1",
    ],
    [
      "an address without secrets, kept byte for byte",
      "/v1/notifications?created_after=2025-01-01T00%3A00%3A00Z&limit=100",
      "/v1/notifications?created_after=2025-01-01T00%3A00%3A00Z&limit=100",
    ],
    ["a fragment after the query", "/a?token=t1#part", "/a?token=[redacted]#part"],
  ])("%s", (_name, given, want) => {
    expect(redactUrl(given, ledger(), 1)).toBe(want);
  });
});

describe("redactHeaders", () => {
  it("replaces credentials and cookies, hashes the Idempotency-Key, keeps the rest", () => {
    const seen = ledger();
    const headers = redactHeaders(
      [
        { name: "Authorization", value: `Basic ${Buffer.from("user:pass-word-1").toString("base64")}` },
        { name: "Cookie", value: "session=s3cr3t-cookie; theme=dark" },
        { name: "X-Api-Key", value: "api-key-value-1" },
        { name: "Idempotency-Key", value: "key-0001" },
        { name: "Content-Type", value: "application/json" },
        { name: "Location", value: "https://h/v1/document-downloads/d?expires=2&signature=beef" },
      ],
      seen,
      3,
    );
    expect(headers.map((header) => header.value)).toEqual([
      REDACTED,
      REDACTED,
      REDACTED,
      seen.idempotencyHash("key-0001"),
      "application/json",
      "https://h/v1/document-downloads/d?expires=2&signature=[redacted]",
    ]);
    const values = seen.secrets.map((secret) => [secret.kind, secret.value]);
    expect(values).toEqual(
      expect.arrayContaining([
        ["password", "pass-word-1"],
        ["cookie", "s3cr3t-cookie"],
        ["secret header", "api-key-value-1"],
        ["Idempotency-Key", "key-0001"],
        ["signed-address signature", "beef"],
      ]),
    );
    expect(seen.secrets.every((secret) => secret.exchange === 3)).toBe(true);
  });

  it("hashes a key the same under the same hash key, differently under another", () => {
    expect(ledger().idempotencyHash("k")).toBe(ledger().idempotencyHash("k"));
    expect(ledger().idempotencyHash("k")).not.toBe(ledger().idempotencyHash("l"));
    expect(new SecretLedger(Buffer.from("other")).idempotencyHash("k")).not.toBe(ledger().idempotencyHash("k"));
  });

  it("names a caller by the keyed hash of its user (Basic) or token, holding nothing of the credential", () => {
    const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
    const caller = (authorization: string) => ledger().callerHash(authorization);
    expect(caller(basic("vendor", "secret-one"))).toBe(caller(basic("vendor", "secret-two")));
    expect(caller(basic("vendor", "secret-one"))).not.toBe(caller(basic("other", "secret-one")));
    expect(caller("Bearer token-one-0001")).not.toBe(caller("Bearer token-two-0002"));
    for (const authorization of [basic("vendor", "secret-one"), "Bearer token-one-0001"])
      expect(caller(authorization)).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
  });
});

describe("redactJson", () => {
  const personal = [
    ["application_lodger", "email"],
    ["parties", "*", "name"],
    ["data", "proprietors", "surname"],
  ];
  it.each([
    [
      "a member at a personal-data path",
      { application_lodger: { email: "a@b.test", type: "CONVEYANCER" } },
      { application_lodger: { email: MASKED, type: "CONVEYANCER" } },
    ],
    [
      "a map's members (`*`)",
      { parties: { buyer: { name: "Robin", party_type: "X" } } },
      { parties: { buyer: { name: MASKED, party_type: "X" } } },
    ],
    [
      "array items share their array's path",
      { data: { proprietors: [{ surname: "A", sequence: 1 }, { surname: "B" }] } },
      { data: { proprietors: [{ surname: MASKED, sequence: 1 }, { surname: MASKED }] } },
    ],
    [
      "the same name elsewhere is kept",
      { name: "Check", email: "kept@example.test" },
      { name: "Check", email: "kept@example.test" },
    ],
    [
      "secret members, whatever their depth",
      { unit: { password: "p", sandbox_token: "t", api_key: 7 } },
      { unit: { password: REDACTED, sandbox_token: REDACTED, api_key: REDACTED } },
    ],
    [
      "a signed address in a string",
      { data: { upload_url: "http://h/u?signature=ab" } },
      { data: { upload_url: "http://h/u?signature=[redacted]" } },
    ],
    [
      "a problem's instance with a query",
      { instance: "/v0/uploads/d?signature=ab" },
      { instance: "/v0/uploads/d?signature=[redacted]" },
    ],
  ])("%s", (_name, given, want) => {
    expect(redactJson(given, ledger(), 1, [], personal)).toEqual(want);
  });

  it("hashes an Idempotency-Key an answer names (a 409's detail), as its request's header was; not a short one", () => {
    const seen = ledger();
    redactHeaders([{ name: "Idempotency-Key", value: "key-00000001" }], seen, 1);
    redactHeaders([{ name: "Idempotency-Key", value: "k-1" }], seen, 2);
    const detail = (key: string) => `Idempotency-Key ${key} was used with a different request body`;
    expect(redactJson({ detail: detail("key-00000001") }, seen, 1)).toEqual({
      detail: detail(seen.idempotencyHash("key-00000001")),
    });
    expect(redactJson({ detail: detail("k-1") }, seen, 2)).toEqual({ detail: detail("k-1") });
  });
});

describe("leakFinder", () => {
  const secret = "correct-horse-battery";
  const find = leakFinder([{ kind: "password", value: secret, exchange: 2 }]);
  it.each([
    ["as it is", `{"note":"${secret}"}`],
    ...[0, 1, 2].map((offset): [string, string] => [
      `inside a longer base64 text (offset ${offset})`,
      Buffer.from(`${"#".repeat(offset)}user:${secret}!`).toString("base64"),
    ]),
    ["in URL-safe base64", Buffer.from(`?>${secret}`).toString("base64url")],
  ])("finds it %s", (_name, text) => {
    expect(find(text)?.secret.exchange).toBe(2);
  });

  const special = 'p@ss w/rd+1&"x';
  const findSpecial = leakFinder([{ kind: "password", value: special, exchange: 4 }]);
  it.each([
    ["URL-encoded", `/x?q=${encodeURIComponent(special)}`],
    ["form-encoded", `q=${new URLSearchParams({ q: special }).toString().slice(2)}`],
    ["escaped in a JSON string", JSON.stringify({ note: special })],
  ])("finds a secret with special characters %s", (_name, text) => {
    expect(text.includes(special)).toBe(false);
    expect(findSpecial(text)?.secret.exchange).toBe(4);
  });

  it("finds nothing in a text without it, and does not look for values under 8 characters", () => {
    expect(find(`{"note":"correct-horse"}`)).toBeUndefined();
    expect(leakFinder([{ kind: "password", value: "short", exchange: 1 }])("a short text")).toBeUndefined();
  });
});
