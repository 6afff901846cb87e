// The named points where a feature installed on the gateway steps into the registry interface and the sandbox's own
// life (`server.ts` hands one `Hooks` to the services and to what it installs). Each point of the registry interface is
// empty by default: a request then pays one branch for it. A feature fills a point only while it has work there.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Operation } from "@lrg/spec";
import type { RuleError } from "./applications/validation-rules.js";

/**
 * What becomes of a new application a hook decides: it fails its validation with these errors, it fails internally
 * (SYSTEM_ERROR, as a scheduled system error), or it is stored and its answer never sent (the connection is closed).
 */
export type SubmissionFate =
  { kind: "fail-validation"; errors: RuleError[] } | { kind: "fail-internally" } | { kind: "close-unanswered" };

/** A new application, as the hook sees it once stored. */
export interface NewSubmission {
  businessUnitId: string;
  applicationId: string;
  idempotencyKey: string;
}

/** The registry interface's hook points, each empty (undefined) until a feature fills it (every member always there). */
export interface RegistryHooks {
  /**
   * A submission taken: whether a new application of the unit may meet a fate (`holds`, in memory: it is then stored
   * with no decision due), and its fate once stored (none: it is decided as any other).
   */
  submissionTaken:
    | {
        holds(businessUnitId: string, nowMs: number): boolean;
        fateOf(submission: NewSubmission, nowMs: number): Promise<SubmissionFate | undefined>;
      }
    | undefined;
  /** An upload address issued: whether this new address is issued already expired. */
  uploadAddressIssued:
    | ((
        businessUnitId: string,
        document: { id: string; fileLength: number; fileSha256: string },
        nowMs: number,
      ) => Promise<boolean>)
    | undefined;
  /** A rate-limited title look-up: the `Retry-After` of the 429 (BG40006) to refuse it with, else null. */
  titleLookUp: ((businessUnitId: string, nowMs: number) => Promise<number | null>) | undefined;
  /** An official search accepted: whether it is deferred, due at `readyMs`. */
  officialSearch:
    | ((businessUnitId: string, search: { messageId: string; readyMs: number }, nowMs: number) => Promise<boolean>)
    | undefined;
  /** Before a list of notifications: sees the unit's list request first, and may answer it instead by throwing. */
  beforeList: ((businessUnitId: string) => Promise<void>) | undefined;
  /**
   * An answer sent: sees every answer of the registry interface before it goes out, refusals included (`payload` as
   * it will be sent); answers a promise only when the answer must wait for it.
   */
  answerSent:
    | ((
        operation: Operation,
        request: FastifyRequest,
        reply: FastifyReply,
        payload: unknown,
      ) => Promise<void> | undefined)
    | undefined;
}

/** The hook points: those of the registry interface, and those of the sandbox's own life. */
export interface Hooks {
  registry: RegistryHooks;
  /** After the sandbox clock moved (of every unit, or one), before due decisions are made. */
  afterClockChange: (() => Promise<void>)[];
  /** After the sandbox's reset (every unit's records gone). */
  afterReset: (() => void)[];
  /** Work to finish before the store closes, as the gateway closes. */
  beforeClose: (() => Promise<void>)[];
}

/** Hook points with nothing in them. */
export const emptyHooks = (): Hooks => ({
  registry: {
    submissionTaken: undefined,
    uploadAddressIssued: undefined,
    titleLookUp: undefined,
    officialSearch: undefined,
    beforeList: undefined,
    answerSent: undefined,
  },
  afterClockChange: [],
  afterReset: [],
  beforeClose: [],
});
