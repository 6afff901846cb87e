// What a command's action gets: how to print, and the clients of the connection its flags and profile name.
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import {
  createGatewayClient,
  createSandboxClient,
  createTlsTransport,
  type GatewayClient,
  type Middleware,
  type SandboxClient,
  type TlsOptions,
} from "@lrg/client";
import {
  overrideEnded,
  overrideNotSaidYet,
  overrideWarning,
  resolveConnection,
  type Connection,
  type Override,
} from "./config.js";
import { createOutput, UsageError, type Output } from "./conventions.js";

/** The global flags (on `lrg` itself, valid after any command). */
export interface GlobalFlags {
  readonly profile?: string;
  readonly url?: string;
  readonly json?: boolean;
  readonly verbose?: boolean;
}

const open: { close(): Promise<void> }[] = [];

/** Closes every client a command opened (so that the process can end). */
export async function closeAll(): Promise<void> {
  await Promise.allSettled(open.splice(0).map((client) => client.close()));
}

/** `--verbose`: each request's method, address and answer status on stderr; headers (and so secrets) never. */
function verboseLog(out: Output): Middleware {
  return {
    onRequest: ({ request }) => void out.note(out.paint("dim", `> ${request.method} ${request.url}`)),
    onResponse: ({ request, response }) =>
      void out.note(out.paint("dim", `< ${response.status} ${request.method} ${request.url}`)),
  };
}

/** A PEM file's contents; a usage error (nothing sent) when it cannot be read. */
export function readPem(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new UsageError(
      `cannot read the ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** The connection's client certificate, key and CA, read from their files; undefined without a certificate. */
function tlsOf(connection: Connection): TlsOptions | undefined {
  const tls = connection.tls();
  if (tls === undefined) return undefined;
  return {
    cert: readPem(tls.cert, "certificate"),
    key: readPem(tls.key, "key"),
    ...(tls.ca !== undefined && { ca: readPem(tls.ca, "CA") }),
  };
}

/**
 * Says on stderr that LRG_* variables override the profile the user chose (`lrg profile use`, `LRG_PROFILE`), and
 * how to stop it: a JSON line with `--json`. The profile commands say it every time; any other command the first
 * time only (`overrideNotSaidYet`).
 */
export function warnOverride(out: Output, override: Override | undefined): void {
  if (override === undefined) return;
  const detail = overrideWarning(override);
  if (out.json)
    out.note(
      JSON.stringify({
        warning: "environment_overrides_profile",
        ...override,
        detail: detail.replace(/^warning: /, ""),
      }),
    );
  else out.note(`lrg: ${detail}`);
}

export interface Runtime {
  readonly out: Output;
  readonly flags: GlobalFlags;
  connection(): Connection;
  /** A gateway client as the connection's user (asks for the password when it has to). */
  client(): Promise<GatewayClient>;
  /** A client of the sandbox control plane (with the connection's sandbox token). */
  sandbox(): SandboxClient;
}

/** The runtime of the command being run (its own options are read by the action). */
export function runtimeOf(command: Command): Runtime {
  const flags = command.optsWithGlobals<GlobalFlags>();
  const out = createOutput({ json: flags.json === true, verbose: flags.verbose === true });
  let connection: Connection | undefined;
  const connect = (): Connection => {
    if (connection === undefined) {
      connection = resolveConnection(flags);
      if (connection.overridden !== undefined) {
        if (overrideNotSaidYet(connection.overridden)) warnOverride(out, connection.overridden);
      } else if (connection.profileName !== undefined && flags.profile === undefined) {
        overrideEnded(connection.profileName);
      }
    }
    return connection;
  };
  return {
    out,
    flags,
    connection: connect,
    client: async () => {
      const c = connect();
      const username = c.username();
      const password = await c.password();
      const tls = tlsOf(c);
      const client = createGatewayClient({
        baseUrl: c.baseUrl,
        username,
        password,
        ...(tls !== undefined && { tls }),
        ...(out.verbose && { middleware: [verboseLog(out)] }),
      });
      open.push(client);
      return client;
    },
    sandbox: () => {
      const c = connect();
      const tls = tlsOf(c);
      // A profile with a client certificate drives the control plane over the same mutual TLS connection.
      const transport = tls === undefined ? undefined : createTlsTransport(tls, new URL(c.baseUrl).origin);
      if (transport !== undefined) open.push(transport);
      const sandbox = createSandboxClient({
        baseUrl: c.baseUrl,
        token: c.sandboxToken(),
        ...(transport !== undefined && { fetch: transport.fetch }),
      });
      if (out.verbose) sandbox.use(verboseLog(out));
      return sandbox;
    },
  };
}

/** Adds a subcommand whose help ends with an example (every command has one). */
export function subcommand(parent: Command, spec: string, description: string, examples: readonly string[]): Command {
  return parent
    .command(spec)
    .description(description)
    .addHelpText(
      "after",
      `\nExample${examples.length > 1 ? "s" : ""}:\n${examples.map((example) => `  $ ${example}`).join("\n")}\n`,
    );
}
