// The conventions every command shares: exit codes, the one-line error, output as text or JSON, colour.
import { CommanderError } from "commander";
import { DocumentSizeError, GatewayError, HttpError, NetworkError } from "@lrg/client";

/** The documented exit codes of `lrg` (README, "Exit codes"). */
export const EXIT = {
  ok: 0,
  /** The API answered with an error (4xx/5xx): its problem code and detail are printed. */
  refused: 1,
  /** The command line, a file it names or the profile is wrong; nothing was sent. */
  usage: 2,
  /** The gateway could not be reached (refused connection, DNS, TLS, timeout). */
  network: 3,
  /** A wait ran out (`applications watch --timeout`) before what it waited for happened. */
  timeout: 4,
} as const;

/** A mistake of the caller found before any request: exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A wait that ran out (`--timeout`) before what it waited for happened: exit code 4. */
export class TimeoutReached extends Error {
  override name = "TimeoutReached";
}

/** An outcome that is not an error of lrg but must end with a given exit code (e.g. `applications watch`). */
export class ExitWith extends Error {
  override name = "ExitWith";
  constructor(
    readonly exitCode: number,
    message = "",
  ) {
    super(message);
  }
}

/** One failing member of a refused request, whichever envelope the answer used. */
export interface FieldError {
  /** JSON pointer to the member (`/body/titles/main/title_number`); null when the answer named none. */
  readonly pointer: string | null;
  readonly detail: string;
  /** The registry's error code or the JSON Schema keyword that failed (`BG40011`, `pattern`), when given. */
  readonly code: string | null;
}

/** What lrg prints for an error and the exit code that goes with it. */
export interface ErrorReport {
  readonly exitCode: number;
  /**
   * For a person: one line, then, for a refusal, one indented line for each failing member (`  <pointer>: <detail>`).
   */
  readonly lines: readonly string[];
  /** The same, for `--json` (printed on stderr as one JSON line). */
  readonly json: Record<string, unknown>;
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, " ").trim();

/**
 * The failing members of an error answer, in the order the server gave them. The client reads every envelope
 * (problem+json `errors[].pointer`, the registry's `source.pointer`, `error_code`/`error_message`, the attach
 * envelope's `type`) into the same items; an item that only repeats the summary line is left out.
 */
export function fieldErrorsOf(error: HttpError, summary: { code: string; detail: string }): FieldError[] {
  const fields = error.errors.map((item) => ({
    pointer: item.pointer ?? null,
    detail: oneLine(item.detail ?? item.title ?? "-"),
    code: item.code ?? item.type ?? null,
  }));
  const [only] = fields;
  const repeatsSummary =
    fields.length === 1 &&
    only?.pointer === null &&
    only.detail === summary.detail &&
    (only.code ?? "-") === summary.code;
  return repeatsSummary ? [] : fields;
}

const fieldLine = (field: FieldError): string =>
  `  ${field.pointer ?? "(no pointer)"}: ${field.detail}${field.code === null ? "" : ` (${field.code})`}`;

/** Classifies an error thrown by a command into the lines printed and the exit code. */
export function reportOf(error: unknown): ErrorReport {
  if (error instanceof HttpError) {
    const code = error.code ?? error.errors[0]?.code ?? "-";
    const detail = oneLine(error.detail ?? error.errors[0]?.detail ?? error.title ?? error.message);
    const errors = fieldErrorsOf(error, { code, detail });
    const requestId = error.requestId;
    return {
      exitCode: EXIT.refused,
      lines: [`lrg: refused: ${error.status} ${code}: ${detail}`, ...errors.map(fieldLine)],
      json: {
        error: "refused",
        status: error.status,
        code,
        detail,
        errors,
        ...(requestId !== undefined && { request_id: requestId }),
      },
    };
  }
  if (error instanceof TimeoutReached) {
    const detail = oneLine(error.message);
    return { exitCode: EXIT.timeout, lines: [`lrg: timeout: ${detail}`], json: { error: "timeout", detail } };
  }
  if (error instanceof NetworkError) {
    const detail = oneLine(error.message);
    return { exitCode: EXIT.network, lines: [`lrg: network: ${detail}`], json: { error: "network", detail } };
  }
  if (error instanceof UsageError || error instanceof DocumentSizeError) {
    const detail = oneLine(error.message);
    return { exitCode: EXIT.usage, lines: [`lrg: usage: ${detail}`], json: { error: "usage", detail } };
  }
  if (error instanceof CommanderError) {
    const detail = oneLine(error.message.replace(/^error: /, ""));
    return { exitCode: EXIT.usage, lines: [`lrg: usage: ${detail}`], json: { error: "usage", detail } };
  }
  if (error instanceof GatewayError) {
    // The client's own refusals that are not HTTP answers (e.g. a deferred result that did not come in time).
    const detail = oneLine(error.message);
    return { exitCode: EXIT.refused, lines: [`lrg: ${detail}`], json: { error: "gateway", detail } };
  }
  const detail = oneLine(error instanceof Error ? error.message : String(error));
  return { exitCode: EXIT.refused, lines: [`lrg: failed: ${detail}`], json: { error: "failed", detail } };
}

/** The http: or https: address a flag names (`--to`, `--upstream`); a usage error otherwise. */
export function httpAddressOf(flag: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} is not an address: ${value}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`${flag} must be http or https (got ${url.protocol})`);
  return url;
}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** A duration as `2d`, `90m`, `1d12h`, `30s` or plain seconds, in seconds (the sandbox clock, `--timeout`). */
export function parseDuration(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  const parts = [...text.matchAll(/(\d+)([smhdw])/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text) {
    throw new UsageError(`not a duration: ${text} (e.g. 2d, 3h, 90m, 1d12h, 45s or seconds)`);
  }
  return parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * (UNITS[unit as string] as number), 0);
}

/** Whether colour may be used on a stream: a terminal, and neither NO_COLOR nor TERM=dumb (FORCE_COLOR forces it). */
export function colourOn(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true && env.TERM !== "dumb";
}

const STYLES = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
} as const;
export type Style = keyof typeof STYLES;

/** How a command prints: JSON or text, with or without colour. */
export interface Output {
  readonly json: boolean;
  readonly verbose: boolean;
  /** Writes a line to stdout. */
  line(text: string): void;
  /** Writes a value as one JSON line to stdout. */
  data(value: unknown): void;
  /** Writes a line to stderr (progress, notes): never part of the result. */
  note(text: string): void;
  /** `text` in a style when stdout has colour. */
  paint(style: Style, text: string): string;
}

export function createOutput(options: { json: boolean; verbose: boolean }): Output {
  const colour = colourOn(process.stdout);
  return {
    json: options.json,
    verbose: options.verbose,
    line: (text) => void process.stdout.write(`${text}\n`),
    data: (value) => void process.stdout.write(`${JSON.stringify(value)}\n`),
    note: (text) => void process.stderr.write(`${text}\n`),
    paint: (style, text) => (colour ? `\u001b[${STYLES[style][0]}m${text}\u001b[${STYLES[style][1]}m` : text),
  };
}

/** Lays out rows as aligned columns (the first row is the header). */
export function table(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows.map((row) =>
    row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0))).join("  "),
  );
}
