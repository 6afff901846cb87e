// lrg record: a reverse proxy in front of a registry that writes the exchanges it carried as HAR 1.2, redacted as it
// writes, and refuses to write a file that still holds a secret it saw.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Server } from "node:net";
import type { Command } from "commander";
import { writePrivateFile } from "../config.js";
import { EXIT, ExitWith, httpAddressOf, UsageError, type Output } from "../conventions.js";
// The proxy and the redaction (and the HAR reader they share with lrg drift) are loaded when a recording starts.
import type { Har, HarEntry } from "../record/har.js";
import type { Upstream } from "../record/proxy.js";
import type { Secret } from "../record/redaction.js";
import { readPem, runtimeOf, subcommand } from "../runtime.js";

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/** How long in-flight exchanges may take to end once the recording is stopped. */
const GRACE_MS = 5_000;

interface RecordFlags {
  readonly upstream: string;
  readonly out: string;
  readonly listen: string;
  readonly cert?: string;
  readonly key?: string;
  readonly ca?: string;
  readonly count?: string;
  readonly hashKeyEnv?: string;
}

/** `HOST:PORT` (`[::1]:0` for IPv6) as a listening address. */
export function parseListen(text: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text);
  const port = Number(match?.[3]);
  if (match === null || port > 65_535) throw new UsageError(`--listen takes HOST:PORT (e.g. 127.0.0.1:0), got ${text}`);
  return { host: match[1] ?? match[2]!, port };
}

/** The `http://HOST:PORT` a server started on `listen` answers at (the port it was given when `listen` asked for 0). */
export function listeningAddress(server: Server, listen: { host: string; port: number }): string {
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : listen.port;
  return `http://${listen.host.includes(":") ? `[${listen.host}]` : listen.host}:${port}`;
}

function upstreamOf(flags: RecordFlags): Upstream {
  const url = httpAddressOf("--upstream", flags.upstream);
  if (url.search !== "" || url.hash !== "") throw new UsageError("--upstream is a base address: no query, no fragment");
  if ((flags.cert === undefined) !== (flags.key === undefined))
    throw new UsageError("a client certificate needs both --cert and --key");
  const tls = {
    ...(flags.cert !== undefined && { cert: readPem(flags.cert, "certificate") }),
    ...(flags.key !== undefined && { key: readPem(flags.key, "key") }),
    ...(flags.ca !== undefined && { ca: readPem(flags.ca, "CA") }),
  };
  if (Object.keys(tls).length > 0 && url.protocol !== "https:")
    throw new UsageError("--cert, --key and --ca are for an https: upstream");
  return Object.keys(tls).length > 0 ? { url, tls: tls as NonNullable<Upstream["tls"]> } : { url };
}

function hashKeyOf(variable: string | undefined): Buffer {
  if (variable === undefined) return randomBytes(32);
  const value = process.env[variable];
  if (value === undefined || value === "") throw new UsageError(`--hash-key-env ${variable}: the variable is not set`);
  return Buffer.from(value, "utf8");
}

function countOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(text)) throw new UsageError(`--count takes a whole number from 1, got ${text}`);
  return Number(text);
}

/** `METHOD /path` of an entry (its address is already redacted; the query is left out all the same). */
const exchangeName = (entry: HarEntry | undefined): string =>
  entry === undefined ? "" : ` (${entry.request.method} ${new URL(entry.request.url).pathname})`;

function refuse(out: Output, file: string, har: Har, found: { exchange: number; secret: Secret }): never {
  const entries = har.log.entries;
  const where =
    found.exchange === 0 ? "the file" : `exchange ${found.exchange}${exchangeName(entries[found.exchange - 1])}`;
  const seen = `exchange ${found.secret.exchange}${exchangeName(entries[found.secret.exchange - 1])}`;
  const article = /^[aeiou]/i.test(found.secret.kind) ? "an" : "a";
  const detail = `${where} holds ${article} ${found.secret.kind} seen in ${seen}`;
  out.note(
    out.json
      ? JSON.stringify({
          error: "secret_in_recording",
          file,
          kind: found.secret.kind,
          exchange: found.exchange,
          seen_in: found.secret.exchange,
          detail,
        })
      : `lrg: refused to write ${file}: ${detail}; nothing was written`,
  );
  throw new ExitWith(EXIT.refused);
}

export function registerRecord(program: Command): void {
  subcommand(
    program,
    "record",
    "Record your software's exchanges with a registry as HAR 1.2, through a reverse proxy: credentials, tokens, signatures, passwords and personal data are never written (a file that would still hold a secret is refused, exit 1)",
    [
      "lrg record --upstream https://registry.example --cert client.crt --key client.key --out day.har",
      "lrg record --upstream http://127.0.0.1:8080 --listen 127.0.0.1:8081 --count 10 --out ten.har",
    ],
  )
    .requiredOption("--upstream <url>", "the registry's base address (the real one, its test stubs, or a gateway)")
    .requiredOption("--out <file>", "the HAR file to write when the recording stops")
    .option("--listen <host:port>", "where the proxy listens (port 0: a free port, printed)", "127.0.0.1:0")
    .option("--cert <file>", "client certificate (PEM) for mutual TLS to the upstream")
    .option("--key <file>", "its private key (PEM)")
    .option("--ca <file>", "the CA (PEM) that signed the upstream's certificate, when not a public one")
    .option("--count <n>", "stop after this many exchanges (else at SIGINT or SIGTERM)")
    .option(
      "--hash-key-env <variable>",
      "the key of the Idempotency-Key hashes (else a random key per recording): the same key gives the same hashes in two recordings",
    )
    .action(async (flags: RecordFlags, command: Command) => {
      const { out } = runtimeOf(command);
      const file = resolve(flags.out);
      if (!existsSync(dirname(file)) || !statSync(dirname(file)).isDirectory())
        throw new UsageError(`no such directory: ${dirname(file)}`);
      const upstream = upstreamOf(flags);
      const listen = parseListen(flags.listen);
      const count = countOf(flags.count);
      const [{ SecretLedger }, { startRecordingProxy }, { serializeChecked }] = await Promise.all([
        import("../record/redaction.js"),
        import("../record/proxy.js"),
        import("../record/har.js"),
      ]);
      const ledger = new SecretLedger(hashKeyOf(flags.hashKeyEnv));

      const entries: { exchange: number; entry: HarEntry }[] = [];
      let stop: () => void = () => undefined;
      const stopped = new Promise<void>((resolve) => (stop = resolve));
      const proxy = await startRecordingProxy({
        upstream,
        listen,
        ledger,
        record: (entry, exchange) => {
          entries.push({ exchange, entry });
          if (count !== undefined && entries.length >= count) stop();
        },
      }).catch((error: NodeJS.ErrnoException) => {
        throw new UsageError(`cannot listen on ${flags.listen}: ${error.code ?? error.message}`);
      });
      const url = listeningAddress(proxy.server, listen);
      if (out.json) out.data({ event: "listening", address: url, upstream: upstream.url.href, out: file });
      else {
        out.line(url);
        out.note(`lrg: Recording at ${url} for ${upstream.url.href} into ${file} (^C to stop)`);
      }
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      await stopped;
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      await proxy.close(GRACE_MS);

      const har: Har = {
        log: {
          version: "1.2",
          creator: { name: "lrg record", version },
          entries: entries.sort((a, b) => a.exchange - b.exchange).map(({ entry }) => entry),
        },
      };
      const checked = serializeChecked(har, ledger.secrets);
      if (!("text" in checked)) refuse(out, file, har, checked);
      writePrivateFile(file, checked.text);
      if (out.json) out.data({ event: "written", out: file, exchanges: har.log.entries.length });
      else out.note(`lrg: wrote ${har.log.entries.length} exchanges to ${file}`);
    });
}
