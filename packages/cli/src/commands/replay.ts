// lrg replay FILE.har: a recording served again as a mock, for the software's own regression tests.
import type { Command } from "commander";
// The replay server and the HAR reader (the conformance suite's) are loaded when a replay starts.
import type { Exchange } from "@lrg/conformance/drift";
import { UsageError } from "../conventions.js";
import type { RawEntry } from "../replay/server.js";
import { runtimeOf, subcommand } from "../runtime.js";
import { underServer } from "./drift.js";
import { readGivenFile } from "./readiness-expectations.js";
import { listeningAddress, parseListen } from "./record.js";

interface ReplayFlags {
  readonly listen: string;
  readonly server?: string;
}

export function registerReplay(program: Command): void {
  subcommand(
    program,
    "replay <file.har>",
    "Serve a HAR recording as a mock: each request gets the answer of the recorded exchange with its operation and parameters (ids and timestamps matched loosely), the same request again the next recorded answer; a request nothing matches gets 404-02 naming the closest recorded exchange and what differs",
    [
      "lrg replay day.har",
      "lrg replay day.har --listen 127.0.0.1:8082",
      "lrg replay day.har --server https://registry.example/bg2test",
    ],
  )
    .option("--listen <host:port>", "where the mock listens (port 0: a free port, printed)", "127.0.0.1:0")
    .option(
      "--server <url>",
      "the recorded upstream's base address: only the exchanges under it, served at the root (default: the first exchange's origin)",
    )
    .action(async (file: string, flags: ReplayFlags, command: Command) => {
      const [{ builtSpec, HarError, readHar }, { replayedExchanges, startReplay }] = await Promise.all([
        import("@lrg/conformance/drift"),
        import("../replay/server.js"),
      ]);
      const { out } = runtimeOf(command);
      const listen = parseListen(flags.listen);
      const text = readGivenFile(file);
      let exchanges: Exchange[];
      try {
        exchanges = readHar(text);
      } catch (error) {
        if (error instanceof HarError) throw new UsageError(`${file} cannot be read: ${error.message}`);
        throw error;
      }
      const base = (flags.server ?? (exchanges[0] === undefined ? "" : new URL(exchanges[0].url).origin)).replace(
        /\/+$/,
        "",
      );
      const served = underServer(exchanges, base === "" ? undefined : base);
      // readHar has checked the document's shape: log.entries is an array of objects.
      const entries = (JSON.parse(text) as { log: { entries: RawEntry[] } }).log.entries;
      const replay = await startReplay({
        spec: builtSpec,
        exchanges: replayedExchanges(builtSpec, served, entries),
        base,
        listen,
        unmatched: (problem) => out.note(`lrg: ${String(problem["detail"])}`),
      }).catch((error: NodeJS.ErrnoException) => {
        throw new UsageError(`cannot listen on ${flags.listen}: ${error.code ?? error.message}`);
      });
      const url = listeningAddress(replay.server, listen);
      if (out.json) out.data({ event: "listening", address: url, recording: file, exchanges: served.length });
      else {
        out.line(url);
        out.note(`lrg: Replaying ${served.length} exchanges of ${file} at ${url} (^C to stop)`);
      }
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      await replay.close();
    });
}
