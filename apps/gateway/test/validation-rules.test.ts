// The registry's submission rules, through HTTP: schema-level ones answered at once (400), the asynchronous ones
// as VALIDATION_FAILED with the registry's rule names in application information.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { idempotencyKey, startGateway, submission, type Credentials, type TestGateway } from "./support/gateway.js";
import { checksumOf, rawPut, SAMPLES } from "./support/upload.js";

let gw: TestGateway;
let unit: Credentials;
beforeAll(async () => {
  gw = await startGateway();
  unit = await gw.newBusinessUnit();
});
afterAll(async () => {
  await gw.stop();
});
beforeEach(async () => {
  await gw.sandbox("PUT", "/sandbox/v1/clock", { now: new Date().toISOString() });
  await gw.sandbox("PUT", "/sandbox/v1/settings", { processing: "automatic", duplicate_rate: 0 });
  await gw.sandbox("PUT", "/sandbox/v1/day-list", { open: true });
});

// The anti-virus test signature, assembled here rather than committed in a file (scanners would flag the file).
const EICAR = Buffer.from(
  ["X5O!P%@AP[4\\PZX54(P^)7CC)7}$", "EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*"].join(""),
  "latin1",
);
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]),
  Buffer.alloc(32, 4),
]);

/** Uploads `bytes` declared as `type` and waits for the registry's checks; answers the document id. */
async function upload(type: string, bytes: Buffer = SAMPLES.pdf): Promise<string> {
  const answer = await gw.call("POST", "/v0/documents/url", {
    as: unit,
    body: { data: { document_type: type, file_length: bytes.length, file_sha256: checksumOf(bytes) } },
  });
  expect(answer.status).toBe(200);
  const { upload_url: url, document_id: id } = (answer.body as { data: { upload_url: string; document_id: string } })
    .data;
  expect(
    (
      await rawPut(
        url,
        { "content-length": String(bytes.length), "x-provider-checksum-sha256": checksumOf(bytes) },
        bytes,
      )
    ).status,
  ).toBe(200);
  await expect.poll(async () => (await gw.gateway.storage.findDocument(id))?.status).toMatch(/ACCEPTED|REJECTED/);
  return id;
}

interface Outcome {
  status: string;
  errors: { type: string; detail: string; pointer: string | null }[];
}

/** Submits `body` and waits for the registry's decision. */
async function decide(body: Record<string, unknown>): Promise<Outcome> {
  const submitted = await gw.call("POST", "/v0/applications", {
    as: unit,
    body,
    headers: { "idempotency-key": idempotencyKey() },
  });
  expect(submitted.status).toBe(202);
  const id = (submitted.body as { data: { application_request_id: string } }).data.application_request_id;
  const read = async () =>
    ((await gw.call("GET", `/v0/applications/${id}/information`, { as: unit })).body as { data: Outcome }).data;
  await expect.poll(async () => (await read()).status, { timeout: 5000 }).not.toBe("VALIDATING");
  return read();
}

/** A submission whose documents are uploaded as declared: `documents` maps key to type. */
async function withDocuments(
  documents: Record<string, string>,
  transactions: Record<string, unknown>,
  overrides: Record<string, unknown> = {},
) {
  const uploaded: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(documents)) uploaded[key] = { type, document_id: await upload(type) };
  return submission({ documents: uploaded, transactions, ...overrides });
}

const today = () => new Date().toISOString().slice(0, 10);

describe("a valid submission", () => {
  it("passes every rule: a transfer and a charge with their documents, unique priorities, an overseas lender of a published territory, today's date", async () => {
    const body = await withDocuments(
      { tr1: "TR1", ch1: "CH1" },
      {
        transfer: { type: "T", priority: 1, details: { date: today() }, document_keys: ["tr1"] },
        charge: { type: "C", priority: 2, details: { date: today() }, party_keys: ["lender"], document_keys: ["ch1"] },
      },
      {
        parties: {
          lender: { party_type: "OVERSEAS_COMPANY", name: "Example Bank", incorporation_territory: "Jersey" },
        },
      },
    );
    expect(await decide(body)).toMatchObject({ status: "ACCEPTED_PRIORITY_PROTECTED", errors: [] });
  });
});

describe("all-mandatory-documents-provided", () => {
  it.each([
    ["a transfer without TR1 or TR5", { doc: "AP1" }, { type: "T", document_keys: ["doc"] }, "one of TR1, TR5"],
    ["a new lease without LEASE", { doc: "SDLT" }, { type: "DFL1", document_keys: ["doc"] }, "LEASE"],
    [
      "a charge with neither CH1 nor MRTG_DEED",
      { doc: "RX1" },
      { type: "C", document_keys: ["doc"] },
      "one of CH1, MRTG_DEED",
    ],
    [
      "a charge with an MD reference but no MRTG_DEED",
      { doc: "CH1" },
      { type: "C", details: { mdref: "MD123A" }, document_keys: ["doc"] },
      "MRTG_DEED",
    ],
    [
      "an attached discharge without DS1",
      { doc: "AP1" },
      { type: "DIS", details: { discharge_submission_type: "ATTACHED" }, document_keys: ["doc"] },
      "DS1",
    ],
  ])("fails %s, pointing at the transaction's documents", async (_name, documents, transaction, missing) => {
    const outcome = await decide(await withDocuments(documents, { t1: { priority: 1, ...transaction } }));
    expect(outcome.status).toBe("VALIDATION_FAILED");
    expect(outcome.errors).toEqual([
      {
        type: "all-mandatory-documents-provided",
        detail: expect.stringContaining(missing),
        pointer: "/transactions/t1/document_keys",
      },
    ]);
  });

  it.each([
    ["a transfer with TR5 instead of TR1", { doc: "TR5" }, { type: "T", document_keys: ["doc"] }],
    [
      "a charge with MRTG_DEED only",
      { doc: "MRTG_DEED" },
      { type: "C", details: { mdref: "MD123A" }, document_keys: ["doc"] },
    ],
    ["a discharge sent otherwise, with no DS1", { doc: "AP1" }, { type: "DIS", document_keys: ["doc"] }],
  ])("passes %s", async (_name, documents, transaction) => {
    expect((await decide(await withDocuments(documents, { t1: { priority: 1, ...transaction } }))).status).toBe(
      "ACCEPTED_PRIORITY_PROTECTED",
    );
  });
});

describe("document-type-valid", () => {
  it("fails a document declared with another type than it was uploaded as", async () => {
    const body = submission({ documents: { tr1: { type: "TR1", document_id: await upload("CH1") } } });
    const outcome = await decide(body);
    expect(outcome.status).toBe("VALIDATION_FAILED");
    expect(outcome.errors).toEqual([
      {
        type: "document-type-valid",
        detail: expect.stringContaining("uploaded as CH1"),
        pointer: "/documents/tr1/type",
      },
    ]);
  });
});

describe("document-valid", () => {
  it.each([
    ["carries the EICAR test signature (alone)", EICAR, "virus scan"],
    [
      "is a PDF carrying the EICAR test signature",
      Buffer.concat([SAMPLES.pdf, EICAR, Buffer.from("\n%%EOF\n")]),
      "virus scan",
    ],
    // Across the scanner's 64 KiB read boundary.
    [
      "is a PDF carrying the EICAR test signature at 64 KiB",
      Buffer.concat([SAMPLES.pdf, Buffer.alloc(65_536 - 30 - SAMPLES.pdf.length, 0x20), EICAR]),
      "virus scan",
    ],
    ["is a JPEG (the requirement admits PDF, TIFF, GIF and PNG only)", JPEG, "unsupported file type"],
    ["is a text file", SAMPLES.text, "unsupported file type"],
    ["is a password-protected PDF", SAMPLES.encryptedPdf, "password protected"],
  ])("fails a document that %s", async (_name, bytes, reason) => {
    const outcome = await decide(
      submission({ documents: { tr1: { type: "TR1", document_id: await upload("TR1", bytes) } } }),
    );
    expect(outcome.status).toBe("VALIDATION_FAILED");
    expect(outcome.errors).toEqual([
      { type: "document-valid", detail: expect.stringContaining(reason), pointer: "/documents/tr1/document_id" },
    ]);
  });
});

describe("submission-warning-understood", () => {
  it.each([
    ["false", { submission_warning_understood: false }],
    ["omitted (it defaults to false)", {}],
  ])("fails an application whose fraud warning was not accepted (%s)", async (_name, warning) => {
    const { submission_warning_understood: _accepted, ...rest } = await withDocuments(
      { tr1: "TR1" },
      { transfer: { type: "T", priority: 1, document_keys: ["tr1"] } },
    );
    const outcome = await decide({ ...rest, ...warning });
    expect(outcome.status).toBe("VALIDATION_FAILED");
    expect(outcome.errors).toEqual([
      { type: "submission-warning-understood", detail: expect.any(String), pointer: "/submission_warning_understood" },
    ]);
  });
});

describe("incorporation-territory-valid", () => {
  it.each([
    [
      "a territory the registry does not list",
      { incorporation_territory: "Atlantis" },
      "/parties/lender/incorporation_territory",
    ],
    ["no territory", {}, "/parties/lender/party_type"],
  ])("fails an overseas company with %s", async (_name, territory, pointer) => {
    const body = await withDocuments(
      { tr1: "TR1" },
      { transfer: { type: "T", priority: 1, party_keys: ["lender"], document_keys: ["tr1"] } },
      { parties: { lender: { party_type: "OVERSEAS_COMPANY", name: "Example Bank", ...territory } } },
    );
    const outcome = await decide(body);
    expect(outcome.status).toBe("VALIDATION_FAILED");
    expect(outcome.errors).toEqual([{ type: "incorporation-territory-valid", detail: expect.any(String), pointer }]);
  });
});

describe("transaction priorities", () => {
  it("fails two transactions of one priority (transaction-priorities-unique), pointing at the second", async () => {
    const body = await withDocuments(
      { tr1: "TR1", ch1: "CH1" },
      {
        transfer: { type: "T", priority: 1, document_keys: ["tr1"] },
        charge: { type: "C", priority: 1, document_keys: ["ch1"] },
      },
    );
    const outcome = await decide(body);
    expect(outcome.status).toBe("VALIDATION_FAILED");
    expect(outcome.errors).toEqual([
      { type: "transaction-priorities-unique", detail: expect.any(String), pointer: "/transactions/charge/priority" },
    ]);
  });

  it.each([0, 21])("refuses priority %i at once (400-02): the registry's bounds are 1 to 20", async (priority) => {
    const answer = await gw.call("POST", "/v0/applications", {
      as: unit,
      body: submission({ transactions: { transfer: { type: "T", priority, document_keys: ["tr1"] } } }),
      headers: { "idempotency-key": idempotencyKey() },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: "400-02",
      errors: [expect.objectContaining({ pointer: "/body/transactions/transfer/priority" })],
    });
  });
});

describe("order-contains-one-transfer", () => {
  it("fails a second transfer", async () => {
    const body = await withDocuments(
      { tr1: "TR1", tr1b: "TR1" },
      {
        first: { type: "T", priority: 1, document_keys: ["tr1"] },
        second: { type: "TNV", priority: 2, document_keys: ["tr1b"] },
      },
    );
    const outcome = await decide(body);
    expect(outcome.status).toBe("VALIDATION_FAILED");
    expect(outcome.errors).toEqual([
      { type: "order-contains-one-transfer", detail: expect.any(String), pointer: "/transactions/second/type" },
    ]);
  });
});

describe("dates not in the future", () => {
  const submitDated = (type: string, date: string, document: string) =>
    gw.call("POST", "/v0/applications", {
      as: unit,
      body: submission({
        transactions: { t1: { type, priority: 1, details: { date }, document_keys: ["doc"] } },
        documents: { doc: { type: document, document_id: "8c2e4f6a-1b3d-4e5f-9a7b-0c1d2e3f4a5b" } },
      }),
      headers: { "idempotency-key": idempotencyKey() },
    });

  it.each([
    ["charge", "C", "CH1"],
    ["transfer", "T", "TR1"],
  ])(
    "refuses a %s dated after today at once (400-02, date-not-in-future), as the registry's stub does",
    async (_name, type, document) => {
      const answer = await submitDated(type, "3000-01-01", document);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: "400-02",
        errors: [
          { type: "date-not-in-future", detail: expect.any(String), pointer: "/body/transactions/t1/details/date" },
        ],
      });
    },
  );

  it("judges by the gateway's clock: a date after the real today is accepted when the clock is later", async () => {
    expect((await submitDated("C", "3000-01-01", "CH1")).status).toBe(400);
    await gw.sandbox("PUT", "/sandbox/v1/clock", { now: "3000-01-02T12:00:00.000Z" });
    expect((await submitDated("C", "3000-01-01", "CH1")).status).toBe(202);
  });

  it("accepts today's date, and a future date on a transaction that is neither a charge nor a transfer", async () => {
    expect((await submitDated("C", today(), "CH1")).status).toBe(202);
    expect((await submitDated("CN", "3000-01-01", "CORRES")).status).toBe(202);
  });
});
