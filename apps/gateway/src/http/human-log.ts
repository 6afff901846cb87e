import { Writable } from "node:stream";

/**
 * The access log as a person at a terminal reads it: one short line per answered request (time, status, method,
 * path without its signature, duration) and one per warning or error, instead of pino's JSON, which floods the
 * terminal of `npm start`. A line that is not JSON is written as it is.
 */
export function humanLog(out: NodeJS.WritableStream = process.stdout): Writable {
  const arrived: Arrivals = new Map();
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n")) {
        const text = line.trim() === "" ? undefined : humanLine(line, arrived);
        if (text !== undefined) out.write(`${text}\n`);
      }
      done();
    },
  });
}

/** pino's numeric levels by name, for the lines worth a person's attention. */
const LEVELS: Record<number, string> = { 40: "WARN", 50: "ERROR", 60: "FATAL" };

/** Requests remembered between their arrival and their answer, at most. */
const MAX_UNANSWERED = 10_000;

/** The method and path of each request that arrived and is not answered yet, by request id. */
type Arrivals = Map<string, { method?: string; url?: string }>;

/**
 * One pino line as a short human line; undefined for what a person need not see (each request's arrival, whose
 * method and path are kept in `arrived` for its answer's line: Fastify writes them on the arrival only).
 */
export function humanLine(line: string, arrived: Arrivals = new Map()): string | undefined {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof entry["time"] === "number" ? new Date(entry["time"]).toISOString().slice(11, 19) : "--:--:--";
  const message = String(entry["msg"] ?? "");
  const level = LEVELS[Number(entry["level"])];
  const id = String(entry["reqId"] ?? "");
  if (message === "incoming request") {
    arrived.set(id, entry["req"] ?? {});
    // A request never answered (its client went away) must not be remembered for ever.
    if (arrived.size > MAX_UNANSWERED) arrived.delete(arrived.keys().next().value ?? "");
    return undefined;
  }
  const response = entry["res"] as { statusCode?: number } | undefined;
  if (message === "request completed" && response) {
    const request = arrived.get(id);
    arrived.delete(id);
    const took = typeof entry["responseTime"] === "number" ? ` ${entry["responseTime"].toFixed(1)} ms` : "";
    return `${time} ${response.statusCode ?? "---"} ${request?.method ?? ""} ${request?.url ?? ""}${took}`.trimEnd();
  }
  const error = entry["err"] as { message?: string } | undefined;
  const reason = error?.message ?? (typeof entry["reason"] === "string" ? entry["reason"] : undefined);
  return `${time} ${level ?? "INFO"} ${message}${reason ? `: ${reason}` : ""}`;
}
