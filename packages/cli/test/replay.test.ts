// lrg replay through the built lrg: the client's workflows (upload with checksum, submit, application information,
// download by redirect, notifications consumed and acknowledged) recorded through `lrg record` in front of a started
// gateway, then run again against `lrg replay` of that recording with the same results; a request nothing recorded
// matches gets 404-02 naming the closest exchange and what differs; the same request repeated gets the recorded
// answers in order, then the last one again.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createGatewayClient, createSandboxClient, unwrap, type GatewayClient } from "@lrg/client";
import { interrupted, keepingAddresses, listening, SANDBOX_TOKEN, smallPdf, submission, useSuite } from "./support.js";

const suite = useSuite();

/** What the workflow ends with: everything the software learnt, and every address it was sent to. */
interface Outcome {
  documentId: string;
  applicationId: string;
  status: string;
  downloadId: string;
  downloadedHead: string;
  contentType: string | undefined;
  events: string[];
  summary: { events: number; notifications: number; acknowledged: number };
  listedBefore: number;
  listedAfter: number;
  addresses: string[];
}

/** The client's workflow, as its own tests run it, against `baseUrl` (the recording proxy, or the replay). */
async function workflow(baseUrl: string): Promise<Outcome> {
  const seen = keepingAddresses();
  const client: GatewayClient = createGatewayClient({
    baseUrl,
    username: suite.user.username,
    password: suite.user.password,
    fetch: seen.fetch,
  });
  const sandbox = createSandboxClient({ baseUrl, token: SANDBOX_TOKEN });
  try {
    const uploaded = await client.uploadDocument(smallPdf("REPLAYED"), { documentType: "TR1" });
    // A fresh key each run: the recording holds only its keyed hash, and replay does not compare headers.
    const submitted = await client.applications.submit(submission(uploaded.document_id, "REPLAYED"), {
      idempotencyKey: `replay-test-${randomUUID()}`,
    });
    const id = submitted.application_request_id;
    // Polled until accepted (the test's timeout bounds it): a replay answers the recorded polls in order.
    while ((await client.applications.information(id)).status !== "ACCEPTED_PRIORITY_PROTECTED")
      await new Promise((resolve) => setTimeout(resolve, 200));
    const information = await client.applications.information(id);
    const despatched = await unwrap(
      sandbox.POST("/sandbox/v1/applications/{id}/correspondence", {
        params: { path: { id } },
        body: { documents: ["RCS"] },
      }),
    );
    const downloadId = despatched.documents[0]!.download_id;
    const downloaded = await client.downloadDocument(downloadId);
    const head = Buffer.from(await new Response(downloaded.body).arrayBuffer())
      .subarray(0, 5)
      .toString();
    const listedBefore = (await unwrap(client.GET("/v1/notifications"))).data.length;
    const events: string[] = [];
    const summary = await client.notifications.consume(async ({ notification }) => {
      events.push(notification.notification_type);
    });
    const listedAfter = (await unwrap(client.GET("/v1/notifications"))).data.length;
    return {
      documentId: uploaded.document_id,
      applicationId: id,
      status: information.status,
      downloadId,
      downloadedHead: head,
      contentType: downloaded.contentType,
      events: events.sort(),
      summary,
      listedBefore,
      listedAfter,
      // Without their queries: a signature the recording redacted is answered as redacted.
      addresses: seen.addresses.map((address) => address.replace(baseUrl, "BASE").split("?", 1)[0]!),
    };
  } finally {
    await client.close();
  }
}

interface HarEntryShape {
  request: { method: string; url: string };
  response: { status: number; content: { text?: string } };
}

describe("lrg replay of the client's own recording", () => {
  let har: string;
  let recorded: Outcome;
  let entries: HarEntryShape[];

  beforeAll(async () => {
    har = join(suite.home.dir, "workflows.har");
    const recorder = await listening(["record", "--upstream", suite.gateway.url, "--out", har], suite.home.env);
    try {
      recorded = await workflow(recorder.address);
    } finally {
      expect(await interrupted(recorder.process)).toBe(0);
    }
    entries = (JSON.parse(readFileSync(har, "utf8")) as { log: { entries: HarEntryShape[] } }).log.entries;
  }, 120_000);

  it("runs the workflow again with the same results, through the replay's own addresses", async () => {
    expect(recorded.summary.acknowledged).toBeGreaterThan(0);
    expect(recorded.listedBefore).toBeGreaterThan(0);
    const replay = await listening(["replay", har], suite.home.env);
    try {
      const replayed = await workflow(replay.address);
      expect(replayed).toEqual(recorded);
      // The upload address and the download's redirect pointed at the replay, not at the recorded gateway.
      expect(replayed.addresses.some((address) => address.startsWith("BASE/v0/uploads/"))).toBe(true);
      expect(replayed.addresses.some((address) => address.startsWith("BASE/v1/document-downloads/"))).toBe(true);
      expect(replayed.addresses.every((address) => address.startsWith("BASE/"))).toBe(true);
      expect(replay.process.stderr.join("\n")).not.toContain("no recorded exchange answers");

      // The PDF was recorded as its first bytes: the replay answers them and says the body was cut, with the size
      // and SHA-256 of the whole (a download's id is its SHA-256).
      const download = await fetch(`${replay.address}/v1/documents/${recorded.downloadId}`, {
        headers: { authorization: "Basic eDp5" },
      });
      expect(download.status).toBe(200);
      const cut = /^kept=(\d+); size=(\d+); sha256=([0-9a-f]{64})$/.exec(
        download.headers.get("x-lrg-replay-cut") ?? "",
      );
      expect(cut?.[3]).toBe(recorded.downloadId);
      const body = Buffer.from(await download.arrayBuffer());
      expect(body.length).toBe(Number(cut?.[1]));
      expect(Number(cut?.[2])).toBeGreaterThan(body.length);
    } finally {
      await interrupted(replay.process);
    }
  }, 120_000);

  it("answers a request nothing recorded matches with 404-02 naming the closest exchange and what differs", async () => {
    const replay = await listening(["replay", har], suite.home.env);
    try {
      // Another id of the same kind matches the recorded one loosely.
      const other = await fetch(`${replay.address}/v0/applications/${randomUUID()}/information`);
      expect(other.status).toBe(200);
      expect(((await other.json()) as { data: { application_request_id: string } }).data.application_request_id).toBe(
        recorded.applicationId,
      );

      const changed = { ...submission(recorded.documentId, "REPLAYED"), customer_reference: "ANOTHER" };
      const submitted = await fetch(`${replay.address}/v0/applications`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
        body: JSON.stringify(changed),
      });
      expect(submitted.status).toBe(404);
      expect(submitted.headers.get("content-type")).toBe("application/problem+json");
      const problem = (await submitted.json()) as {
        code: string;
        detail: string;
        closest: { exchange: number; method: string; path: string };
        errors: { pointer: string; detail: string }[];
      };
      const submitIndex = entries.findIndex(
        (entry) => entry.request.method === "POST" && new URL(entry.request.url).pathname === "/v0/applications",
      );
      expect(problem.code).toBe("404-02");
      expect(problem.closest).toMatchObject({ exchange: submitIndex, method: "POST", path: "/v0/applications" });
      expect(problem.errors).toEqual([
        expect.objectContaining({
          pointer: "/request/body/customer_reference",
          detail: 'recorded "REPLAYED", got "ANOTHER"',
        }),
      ]);
      expect(problem.detail).toContain(`the closest is exchange ${submitIndex}`);

      const method = await fetch(`${replay.address}/v0/applications`, { method: "DELETE" });
      expect(method.status).toBe(404);
      const byMethod = (await method.json()) as { errors: { pointer: string }[] };
      expect(byMethod.errors.map((error) => error.pointer)).toContain("/request/method");
      expect(replay.process.stderr.join("\n")).toContain("no recorded exchange answers POST /v0/applications");
    } finally {
      await interrupted(replay.process);
    }
  }, 60_000);

  it("answers the same request repeated with the recorded answers in order, then the last one again", async () => {
    const listings = entries
      .filter(
        (entry) => entry.request.method === "GET" && entry.request.url === `${suite.gateway.url}/v1/notifications`,
      )
      .map((entry) => entry.response.content.text);
    expect(new Set(listings).size).toBeGreaterThan(1); // a listing with notifications, then an empty one
    const replay = await listening(["replay", har], suite.home.env);
    try {
      const answers: string[] = [];
      for (let i = 0; i <= listings.length; i += 1)
        answers.push(await (await fetch(`${replay.address}/v1/notifications`)).text());
      // Each answer as recorded, its addresses on the gateway (a notification's payload_schema) moved to the replay's.
      expect(answers[0]).toContain(`${replay.address}/schemas/`);
      expect(answers.map((answer) => answer.replaceAll(replay.address, suite.gateway.url))).toEqual([
        ...listings,
        listings.at(-1),
      ]);
    } finally {
      await interrupted(replay.process);
    }
  }, 60_000);
});
