import { isoMillisNoZone } from "./clock.js";
import type { Problem, ValidationIssue } from "./problems.js";
import type { SpecNode } from "@lrg/spec";

/** The registry's error envelope of an operation, as its `x-lrg-error-envelope` names it. */
export interface ErrorEnvelope {
  /** The component schema of the envelope. */
  schema: "RegistryErrors" | "RegistryErrorCodes" | "AttachErrors";
  /** The registry's code for each of the gateway's problem codes, where the registry has one. */
  codes: Record<string, string>;
}

/** What an envelope's items are made from, beside the problem. */
export interface EnvelopeContext {
  requestId: string;
  /** The instant the items are dated (`timestamp`): by the clock of the request's business unit (`errorAnswer`). */
  nowMs: number;
}

/** The envelope an operation of the spec answers its errors in; undefined for problem+json. */
export function errorEnvelopeOf(operation: SpecNode): ErrorEnvelope | undefined {
  const envelope = operation["x-lrg-error-envelope"] as
    { schema: ErrorEnvelope["schema"]; codes?: Record<string, string> } | undefined;
  return envelope && { schema: envelope.schema, codes: envelope.codes ?? {} };
}

/** A pointer into the body is written from the body's root, as the registry writes it. */
function bodyPointer(pointer: string | null): string | null {
  return pointer === "/body" || pointer?.startsWith("/body/") ? pointer.slice("/body".length) : pointer;
}

/**
 * Renders a problem in the registry's envelope: one item per failing member of a schema error, else one item. The
 * code is the registry's rule the problem carries, else the registry's code for the problem's code on this
 * operation, else the problem code itself.
 */
export function renderEnvelope(
  envelope: ErrorEnvelope,
  problem: Problem,
  context: EnvelopeContext,
): { errors: Record<string, unknown>[] } {
  const code = problem.rule ?? envelope.codes[problem.code] ?? problem.code;
  const issues: Pick<ValidationIssue, "detail" | "pointer">[] = problem.errors?.length
    ? problem.errors.slice(0, 100)
    : [{ detail: problem.message, pointer: null }];
  const item = (issue: Pick<ValidationIssue, "detail" | "pointer">): Record<string, unknown> => {
    const detail = issue.detail.slice(0, 2000);
    const pointer = bodyPointer(issue.pointer);
    switch (envelope.schema) {
      case "RegistryErrors":
        return {
          code,
          detail,
          status: String(problem.status),
          trace_id: context.requestId,
          title: problem.title,
          ...(pointer !== null ? { source: { pointer } } : {}),
        };
      case "RegistryErrorCodes":
        return {
          error_code: code,
          error_message: detail,
          http_status: String(problem.status),
          timestamp: isoMillisNoZone(context.nowMs),
          trace_id: context.requestId,
        };
      case "AttachErrors":
        return { type: code, detail, pointer };
    }
  };
  return { errors: issues.map(item) };
}
