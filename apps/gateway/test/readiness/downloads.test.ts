import { describe, expect, it } from "vitest";
import { basic } from "../support/gateway.js";
import {
  acknowledge,
  advance,
  askForDocument,
  check,
  correctConsumer,
  correctDownload,
  fetchDownloadAddress,
  list,
  newUnit,
  onePageConsumer,
  read,
  start,
  useTestGateway,
  type Unit,
} from "./support.js";

const gateway = useTestGateway();

/** The download ids of the correspondence despatched to the unit, from its notifications (acknowledged after). */
async function despatchedDocuments(unit: Unit): Promise<string[]> {
  const ids: string[] = [];
  const page = await list(unit);
  for (const notification of page)
    if (notification.notification_type === "application.correspondence-despatched")
      ids.push(...notification.payload.data.documents.map((document) => document.download_id));
  expect(
    await acknowledge(
      unit,
      page.map((notification) => notification.notification_id),
    ),
  ).toBe(200);
  return ids;
}

describe("the downloads check", () => {
  it("despatches two documents the unit can download, and passes a client that follows each 302 without credentials", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["downloads"], time_limit_seconds: 60 });
    expect(check(run, "downloads").instructions).toMatch(/^Correspondence was despatched/);
    const ids = await despatchedDocuments(unit);
    expect(ids).toHaveLength(2);

    // The correspondence is real: a priority-protected application whose information lists the record.
    const notification = (await list(unit, "?status=ACKNOWLEDGED")).find(
      (n) => n.notification_type === "application.correspondence-despatched",
    )!;
    const application = await gateway().call("GET", `/v0/applications/${notification.subject}/information`, {
      as: unit,
    });
    expect(application.body).toMatchObject({
      data: {
        status: "ACCEPTED_PRIORITY_PROTECTED",
        correspondence: [{ documents: ids.map((download_id) => ({ download_id })) }],
      },
    });

    for (const id of ids) await correctDownload(unit, id);
    const judged = check(await read(unit, run.run_id), "downloads");
    expect(judged.verdict).toBe("passed");
    expect(judged.evidence.requests.map((r) => [r.operation_id, r.status, r.credentials_sent])).toEqual([
      ["downloadDocument", 302, true],
      ["fetchDocumentContent", 200, false],
      ["downloadDocument", 302, true],
      ["fetchDocumentContent", 200, false],
    ]);
    expect(judged.evidence.requests[1]?.path_parameters).toEqual({ download_id: ids[0] });
    await advance(unit, 60);
    expect(check(await read(unit, run.run_id), "downloads").verdict).toBe("passed");
  });

  it("fails at once a client that forwards the Authorization header to the download address", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["downloads"], time_limit_seconds: 60 });
    const [first] = await despatchedDocuments(unit);
    const location = await askForDocument(unit, first!);
    // The naive client copies its headers onto the request that follows the redirect.
    expect(await fetchDownloadAddress(location, { authorization: basic(unit) })).toEqual([200, "%PDF-"]);
    const judged = check(await read(unit, run.run_id), "downloads");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(
      /^The registry credentials \(Authorization\) were sent to a download address/,
    );
    expect(judged.evidence.requests.at(-1)).toMatchObject({
      operation_id: "fetchDocumentContent",
      credentials_sent: true,
      query: { signature: "[redacted]" },
    });
  });

  it("fails a client that lets fetch follow the redirect with its Authorization header (same origin: fetch keeps it)", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["downloads"], time_limit_seconds: 60 });
    for (const id of await despatchedDocuments(unit)) {
      const answer = await fetch(`${gateway().url}/v1/documents/${id}`, { headers: { authorization: basic(unit) } });
      await answer.arrayBuffer();
      expect(answer.status).toBe(200);
    }
    expect(check(await read(unit, run.run_id), "downloads").verdict).toBe("failed");
  });

  it("fails a client that does not follow the 302, once the run ends", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["downloads"], time_limit_seconds: 60 });
    const ids = await despatchedDocuments(unit);
    for (const id of ids) await askForDocument(unit, id);
    expect(check(await read(unit, run.run_id), "downloads").verdict).toBe("running");
    await advance(unit, 60);
    const judged = check(await read(unit, run.run_id), "downloads");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toBe(
      `Not every despatched document was downloaded: ${ids
        .map((id) => `${id} was answered 302, but its download address (Location) was never requested`)
        .join("; ")}.`,
    );
    expect(judged.evidence.requests.map((r) => r.operation_id)).toEqual(["downloadDocument", "downloadDocument"]);
  });

  it("fails a client that acknowledges the correspondence but never downloads, once the run ends", async () => {
    const unit = await newUnit();
    const run = await start(unit, { checks: ["downloads"], time_limit_seconds: 60 });
    // Lists and acknowledges every notification, and downloads nothing.
    await onePageConsumer(unit);
    await advance(unit, 60);
    const judged = check(await read(unit, run.run_id), "downloads");
    expect(judged.verdict).toBe("failed");
    expect(judged.evidence.found).toMatch(/was never asked for \(GET \/v1\/documents\//);
    expect(judged.evidence.requests).toEqual([]);
  });

  it("is not exercised when the software does nothing, and passes alongside the other checks with a correct client", async () => {
    const idle = await newUnit();
    const idleRun = await start(idle, { checks: ["downloads"], time_limit_seconds: 60 });
    await advance(idle, 60);
    expect(check(await read(idle, idleRun.run_id), "downloads").verdict).toBe("not_exercised");

    const unit = await newUnit();
    const run = await start(unit, {
      checks: ["downloads", "duplicates", "nothing-left-behind"],
      time_limit_seconds: 60,
    });
    await correctConsumer(unit);
    await advance(unit, 60);
    const finished = await read(unit, run.run_id);
    expect(finished.checks.map((c) => [c.name, c.verdict])).toEqual([
      ["duplicates", "passed"],
      ["nothing-left-behind", "passed"],
      ["downloads", "passed"],
    ]);
  });
});
