// Departures from the spec that the fuzzer has found and that wait for a fix in the gateway or the spec. Each is
// matched narrowly (status, problem code, the request that provokes it), counted and reported apart, and does not
// fail a run unless it is --strict. Remove an entry once its fix lands: a run then reports it as never seen.
import type { TargetName } from "../session.js";
import type { Operation } from "@lrg/spec";

/** What a matcher sees of one exchange whose answer departed from the spec. */
export interface Departure {
  /** The kind of target answering. */
  target: TargetName;
  operation: Operation | undefined;
  method: string;
  pathname: string;
  status: number;
  contentType: string;
  /** The answer's JSON body, when it had one. */
  json: unknown;
  problems: string[];
  /** The sandbox's fault injection may be on. */
  faultsPossible: boolean;
}

export interface KnownDeparture {
  id: string;
  /** What happens, and where the fix belongs. */
  summary: string;
  matches(departure: Departure): boolean;
}

/** The gateway and spec agree on everything the fuzzer has found so far; the mock (Prism) does not, in one place. */
export const KNOWN_DEPARTURES: KnownDeparture[] = [
  {
    id: "mock-pdf-placeholder",
    summary:
      "Prism answers a document download (application/pdf, format: binary, no example in the spec) with the text " +
      '"string", not a PDF. A limitation of a static mock (it has no documents to send); the gateway sends real PDFs.',
    matches: (d) =>
      d.target === "mock" &&
      d.status === 200 &&
      d.contentType.startsWith("application/pdf") &&
      d.problems.every((p) => p.includes("does not start with %PDF-")),
  },
];

/** The known departure that explains an exchange, if one does. */
export function knownDepartureOf(departure: Departure): KnownDeparture | undefined {
  return KNOWN_DEPARTURES.find((known) => known.matches(departure));
}
