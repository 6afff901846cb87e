// The two requests that need a call before them, each reached through a signed address the spec says where to find
// (`x-lrg-signed-address`): an upload to a freshly signed address, and a download through the signed redirect; each
// sent as signed or changed as its mutation says, and what it gets judged.
import { createHash } from "node:crypto";
import { signedAddressOf } from "@lrg/spec";
import type { WireRequest } from "../http.js";
import { operationOfFlow, valueAt } from "../operation-facts.js";
import { basic } from "../session.js";
import type { Credentials } from "./context.js";
import type { Exchanger } from "./exchange.js";
import { downloadProblems, jsonOf, replayProblems, uploadProblems } from "./oracles.js";
import type { DownloadMutation, Flow, Plan, UploadMutation } from "./plans.js";

/** A small document: a PDF header and filler, or (for some fills) bytes the type check refuses. */
export function documentBytes(size: number, fill: number): Buffer {
  const bytes = Buffer.alloc(size, 0x20 + (fill % 90));
  const header = fill % 7 === 0 ? Buffer.from("GIF87a-not-really") : Buffer.from("%PDF-1.7\n");
  header.copy(bytes, 0, 0, Math.min(size, header.length));
  return bytes;
}

export const sha256Base64 = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("base64");

/** The address with its signature's last hex digit changed. */
function changedSignature(address: URL): void {
  const signature = address.searchParams.get("signature") ?? "";
  address.searchParams.set("signature", `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`);
}

/** The address with its expiry an hour later than signed. */
function laterExpiry(address: URL): void {
  address.searchParams.set("expires", String(Number(address.searchParams.get("expires") ?? "0") + 3600));
}

/** The PUT of `bytes` to a signed upload address, changed as `mutation` says (`who`: the unit that asked for it). */
export function uploadWire(
  signed: URL,
  bytes: Buffer,
  mutation: UploadMutation,
  who: Pick<Credentials, "username" | "password">,
): WireRequest {
  const address = new URL(signed);
  const sha256 = sha256Base64(bytes);
  let body = bytes;
  let suffix = "";
  let stallAfter: number | undefined;
  const headers: Record<string, string> = {
    "content-type": "application/octet-stream",
    "content-length": String(bytes.length),
    "x-provider-checksum-sha256": sha256,
  };
  if (mutation === "checksum")
    headers["x-provider-checksum-sha256"] = sha256Base64(Buffer.concat([bytes, Buffer.from("x")]));
  if (mutation === "no-checksum") delete headers["x-provider-checksum-sha256"];
  if (mutation === "bytes") {
    body = Buffer.from(bytes);
    body[body.length - 1] = (body[body.length - 1] ?? 0) ^ 0xff;
  }
  if (mutation === "length") body = bytes.subarray(0, bytes.length - 1);
  if (mutation === "empty") body = Buffer.alloc(0);
  if (mutation === "length" || mutation === "empty") headers["content-length"] = String(body.length);
  if (mutation === "signature") changedSignature(address);
  if (mutation === "expires") laterExpiry(address);
  if (mutation === "junk-query") suffix = "&colour=red";
  if (mutation === "chunked") {
    delete headers["content-length"];
    headers["transfer-encoding"] = "chunked";
  }
  if (mutation === "content-type") headers["content-type"] = "application/pdf";
  if (mutation === "declared-too-large") {
    headers["content-length"] = String(41_943_041);
    stallAfter = Math.min(body.length, 1024);
  }
  if (mutation === "with-credentials") headers["authorization"] = basic(who);
  const target = `${address.pathname}${address.search}${suffix}`;
  return { method: "PUT", target, headers, body, fresh: true, ...(stallAfter !== undefined ? { stallAfter } : {}) };
}

/** The GET of a signed download address, changed as `mutation` says (`id`: the download id it was given for). */
export function downloadWire(signed: URL, mutation: DownloadMutation, id: string): WireRequest {
  const address = new URL(signed);
  if (mutation === "signature") changedSignature(address);
  if (mutation === "expires") laterExpiry(address);
  if (mutation === "no-signature") address.searchParams.delete("signature");
  if (mutation === "junk-query") address.searchParams.append("colour", "red");
  if (mutation === "other-id")
    address.pathname = address.pathname.replace(/[0-9a-f]{64}$/, createHash("sha256").update(id).digest("hex"));
  return { method: mutation === "head" ? "HEAD" : "GET", target: `${address.pathname}${address.search}`, headers: {} };
}

/**
 * Asks for an upload address as the unit (`owner`) and uploads to it, changed as the flow's mutation says; answers
 * the new document's id when the upload was accepted.
 */
export async function upload(
  exchanger: Exchanger,
  baseUrl: string,
  plan: Plan | undefined,
  flow: Extract<Flow, { kind: "upload" }>,
  owner: "a" | "b" = "a",
): Promise<string | undefined> {
  const issuer = signedAddressOf(operationOfFlow("upload"));
  if (issuer === undefined) return undefined;
  const who = exchanger.context.unitsOrThrow()[owner];
  const bytes = documentBytes(flow.size, flow.fill);
  const request = {
    data: {
      document_type: flow.documentType,
      file_length: flow.size,
      file_sha256: sha256Base64(bytes),
      ...(flow.filter !== undefined ? { additional_provider_filter: flow.filter } : {}),
    },
  };
  const asked = await exchanger.asUnit(who, issuer.issuedBy.method, issuer.issuedBy.path, request, {}, plan);
  if (asked.kind !== "answer" || asked.status !== 200) return undefined;
  const json = jsonOf(asked.body);
  const given = valueAt(issuer.address, { headers: asked.headers, json });
  if (given === undefined) return undefined;
  const wire = uploadWire(new URL(given, baseUrl), bytes, flow.mutation, who);
  const answer = await exchanger.send(wire, plan, owner);
  if (answer.kind !== "answer") return undefined;
  exchanger.report(
    "upload",
    plan,
    wire,
    answer,
    uploadProblems(
      flow.mutation,
      { status: answer.status, code: (jsonOf(answer.body) as { code?: string } | undefined)?.code },
      exchanger.faultsPossible,
    ),
  );
  if (flow.mutation === "replay" && answer.status === 200) {
    const again = await exchanger.send({ ...wire }, plan, owner);
    if (again.kind === "answer") exchanger.report("upload", plan, wire, again, replayProblems(again.status));
  }
  return answer.status === 200
    ? (json as { data?: { document_id?: string } } | undefined)?.data?.document_id
    : undefined;
}

/** Follows a download id to its signed address and fetches it, changed as the flow's mutation says. */
export async function download(
  exchanger: Exchanger,
  baseUrl: string,
  plan: Plan,
  flow: Extract<Flow, { kind: "download" }>,
): Promise<boolean> {
  const issuer = signedAddressOf(operationOfFlow("download"));
  if (issuer === undefined) return false;
  const owner = flow.other ? "b" : "a";
  const id = exchanger.context.resolve(flow.id);
  const first = await exchanger.send(
    {
      method: issuer.issuedBy.method,
      // Encoded: a harvested id may be anything an answer echoed (a readiness run's evidence echoes what was sent).
      target: issuer.issuedBy.path.replace(/\{\w+\}/, encodeURIComponent(id)),
      headers: { authorization: basic(exchanger.context.unitsOrThrow()[owner]) },
    },
    plan,
    owner,
    { named: [{ pool: flow.id.pool, value: id }] },
  );
  if (first.kind !== "answer") return false;
  const location = valueAt(issuer.address, { headers: first.headers, json: undefined });
  if (first.status !== 302 || location === undefined) return false;
  const wire = downloadWire(new URL(location, baseUrl), flow.mutation, id);
  const answer = await exchanger.send(wire, plan, "a");
  if (answer.kind !== "answer") return false;
  exchanger.report(
    "download",
    plan,
    wire,
    answer,
    downloadProblems(flow.mutation, answer.status, exchanger.faultsPossible),
  );
  return answer.status === 200;
}
