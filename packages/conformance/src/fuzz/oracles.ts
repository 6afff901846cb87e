// The fuzzer's oracles, each a function of one exchange: the spec's (a documented status, content type, body and
// headers, through the one response checker), no 5xx but the sandbox's injected 503-01, business-unit isolation, and
// what a flow through a signed address must get. Each answers the problems it finds; none sends anything.
import { echoesRequests, type Operation } from "@lrg/spec";
import { violationsOf } from "@lrg/spec/check";
import { errorOf } from "../driver.js";
import type { WireAnswer, WireRequest } from "../http.js";
import { acknowledges } from "../operation-facts.js";
import { recordsIn, stringsIn, type FuzzContext, type Named } from "./context.js";
import {
  REFUSED_DOWNLOAD_MUTATIONS,
  REFUSED_UPLOAD_MUTATIONS,
  type DownloadMutation,
  type UploadMutation,
} from "./plans.js";

/** An exchange that was answered. */
export type Answered = Extract<WireAnswer, { kind: "answer" }>;

/** The JSON of a body, or undefined when it is none. */
export function jsonOf(body: Buffer | undefined): unknown {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body.toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}

/** Every value a request sends: its path's segments, its query's values and its JSON body's strings, decoded. */
export function valuesSentIn(wire: WireRequest): string[] {
  // Split by hand, not through URL, which would resolve the `..` and `.` segments the fuzzer sends.
  const mark = wire.target.indexOf("?");
  const [path, query] = mark < 0 ? [wire.target, ""] : [wire.target.slice(0, mark), wire.target.slice(mark + 1)];
  const decoded = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  return [
    ...path
      .split("/")
      .filter((segment) => segment !== "")
      .map(decoded),
    ...[...new URLSearchParams(query).values()].filter((value) => value !== ""),
    ...stringsIn(jsonOf(wire.body)),
  ];
}

/**
 * What the spec says of the answer: its status is documented for the operation the request addresses (an unmatched
 * route: 404 `404-02` or 405), its content type, body and headers too. `pathMayMiss`: a path parameter the router
 * may not take, so an unmatched-route answer is acceptable too.
 */
export function specProblems(wire: WireRequest, answer: Answered, pathMayMiss: boolean): string[] {
  const pathname = wire.target.split("?")[0] ?? wire.target;
  return violationsOf(
    { method: wire.method, pathname, pathMayMiss },
    { status: answer.status, headers: answer.headers, body: answer.body },
  );
}

/**
 * A 5xx: `injected` when it is the sandbox's fault injection (a 503-01, or any 503 to a HEAD, which has no body to
 * read the code from) while faults may be on; otherwise the problem to report. Nothing for any other status.
 */
export function serverErrorOf(
  wire: WireRequest,
  answer: Answered,
  json: unknown,
  faultsPossible: boolean,
): "injected" | string | undefined {
  if (answer.status < 500) return undefined;
  // problem+json's code, or the code of a registry envelope's first item.
  const code = errorOf({ body: json }).code;
  if (answer.status === 503 && (code === "503-01" || wire.method === "HEAD") && faultsPossible) return "injected";
  return `server error ${answer.status}${code === undefined ? "" : ` (${String(code)})`}`;
}

/** What the isolation oracle found of one exchange: whether it could have seen a breach, and each one it saw. */
export interface IsolationFindings {
  checked: boolean;
  problems: string[];
}

/**
 * Unit b (its user or its token) asking an operation of one unit's records: a record of unit a named in the path is
 * not found, none of a's notifications is acknowledged, and no answer carries a record of a that the request did not
 * name itself. A record counts as a's when a made it or was answered it and b was not (b named it in an earlier request
 * that succeeded: `FuzzContext.named`); a title belongs to the register, which every unit reads. An answer that repeats
 * b's own requests (`echoesRequests`: a readiness run's observations) may show b any value b sent itself, even one of
 * a's records that b was refused.
 */
export function isolationFindings(
  context: FuzzContext,
  operation: Operation,
  wire: WireRequest,
  named: Named[],
  answer: Answered,
  json: unknown,
): IsolationFindings {
  const ofA = ({ pool, value }: Named) =>
    pool !== "title" && context.has("a", pool, value) && !context.has("b", pool, value);
  const sent = new Set([...named.map((record) => record.value), ...stringsIn(jsonOf(wire.body))]);
  const echoes = echoesRequests(operation);
  const shownAgain = (value: string) => sent.has(value) || (echoes && context.hasSent("b", value));
  const found: IsolationFindings = { checked: false, problems: [] };
  if (named.some(ofA)) {
    found.checked = true;
    if (answer.status < 400) found.problems.push(`another business unit's record answered ${answer.status}`);
  }
  if (acknowledges(operation) && answer.status === 200) {
    found.checked ||= [...sent].some((value) => ofA({ pool: "notification", value }));
    const acknowledged = (json as { data?: { acknowledged?: unknown } } | undefined)?.data?.acknowledged;
    const taken = (Array.isArray(acknowledged) ? acknowledged : []).filter(
      (id) => typeof id === "string" && ofA({ pool: "notification", value: id }),
    );
    if (taken.length > 0)
      found.problems.push(`another business unit acknowledged ${taken.length} of unit a's notifications`);
  }
  if (answer.status < 300 && json !== undefined) {
    found.checked = true;
    const leaked = recordsIn(json).filter((record) => ofA(record) && !shownAgain(record.value));
    if (leaked.length > 0)
      found.problems.push(
        `an answer to another business unit carries unit a's ${leaked.map((r) => `${r.pool} ${r.value}`).join(", ")}`,
      );
  }
  return found;
}

/**
 * A correct upload to a fresh address is accepted (unless a fault was injected: a 503-01, or an address the sandbox
 * issued already expired, 403-02); a changed one is refused.
 */
export function uploadProblems(
  mutation: UploadMutation,
  answer: { status: number; code: string | undefined },
  faultsPossible: boolean,
): string[] {
  const { status } = answer;
  const injected = faultsPossible && (status === 503 || (status === 403 && answer.code === "403-02"));
  if (mutation === "none" && status !== 200 && !injected)
    return [`a correct upload to a fresh address was refused with ${status}`];
  if ((REFUSED_UPLOAD_MUTATIONS as readonly string[]).includes(mutation) && status < 300)
    return [`an upload that departs from its signed address (${mutation}) was accepted`];
  return [];
}

/** An upload address takes one upload: a second to it is refused. */
export function replayProblems(status: number): string[] {
  return status < 300 ? ["an upload address accepted a second upload"] : [];
}

/** A fresh signed download address answers the bytes (unless a fault was injected); a changed one is refused. */
export function downloadProblems(mutation: DownloadMutation, status: number, faultsPossible: boolean): string[] {
  const injected = status === 503 && faultsPossible;
  if (mutation === "none" && status !== 200 && !injected) return [`a fresh signed download address answered ${status}`];
  if ((REFUSED_DOWNLOAD_MUTATIONS as readonly string[]).includes(mutation) && status < 300)
    return [`a download address that departs from the signed one (${mutation}) answered ${status}`];
  return [];
}
