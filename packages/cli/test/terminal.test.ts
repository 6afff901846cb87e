// What a person sees on a terminal: the upload's progress bar and the application table, through tmux
// (send-keys, capture-pane) on a private tmux server; `script` from util-linux when tmux is missing. The captures
// are saved under test-output/.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LRG, smallPdf, submission, useSuite } from "./support.js";

const suite = useSuite();
const OUTPUT = join(import.meta.dirname, "..", "test-output");

const has = (command: string, args: string[]): boolean => spawnSync(command, args).status === 0;
// LRG_TEST_TERMINAL=script tries the fallback on a machine that has tmux.
const TMUX = process.env.LRG_TEST_TERMINAL !== "script" && has("tmux", ["-V"]);
const SCRIPT = has("script", ["--version"]);
const reason = TMUX
  ? ""
  : SCRIPT
    ? " (tmux is not installed: through script from util-linux)"
    : " (skipped: neither tmux nor script is installed)";

/** A shell script that sets lrg's environment, runs `command` and prints its exit code. */
function runner(name: string, command: string): string {
  const env = { ...suite.env };
  delete env.NO_COLOR; // a person's terminal: colour on
  const exports = Object.entries(env)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `export ${key}='${String(value).replace(/'/g, "'\\''")}'`);
  const path = join(suite.home.dir, `${name}.sh`);
  writeFileSync(path, [...exports, `cd '${suite.home.dir}'`, `${command}`, 'echo "EXIT=$?"', ""].join("\n"));
  return path;
}

/** Runs a script on a terminal and answers the screen (tmux) or the terminal's output (script), without escapes. */
async function onTerminal(name: string, command: string): Promise<string> {
  const script = runner(name, command);
  let screen: string;
  if (TMUX) {
    const socket = `lrg-cli-test-${randomUUID()}`;
    const tmux = (...args: string[]): string =>
      execFileSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
    tmux("new-session", "-d", "-x", "180", "-y", "30", "-s", "lrg");
    try {
      tmux("send-keys", "-t", "lrg", `bash '${script}'`, "Enter");
      // Until the script says it is done (the test's time bound is the limit).
      for (screen = ""; !/EXIT=\d+/.test(screen); await new Promise((resolve) => setTimeout(resolve, 200))) {
        screen = tmux("capture-pane", "-p", "-J", "-t", "lrg");
      }
    } finally {
      tmux("kill-server");
    }
  } else {
    // Not execFileSync: the gateway runs in this process and must go on answering.
    const child = spawn("script", ["-q", "-e", "-c", `bash '${script}'`, "/dev/null"], {
      env: { PATH: process.env.PATH, TERM: "xterm" },
    });
    let raw = "";
    child.stdout.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    await new Promise((resolve) => child.on("close", resolve));
    // The last state of each line that was redrawn (after a carriage return or a restored cursor), without escapes.
    /* eslint-disable no-control-regex -- the escape sequences of a terminal are what these remove */
    screen = raw
      .replace(/\u001b8|\u001b\[\d*G/g, "\r")
      .replace(/\u001b7/g, "")
      .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "")
      .split(/\r?\n/)
      .map(
        (line) =>
          line
            .split("\r")
            .filter((part) => part !== "")
            .at(-1) ?? "",
      )
      .join("\n");
    /* eslint-enable no-control-regex */
  }
  mkdirSync(OUTPUT, { recursive: true });
  screen = screen.trimEnd();
  writeFileSync(join(OUTPUT, `${name}.txt`), `${screen}\n`);
  return screen;
}

describe.skipIf(!TMUX && !SCRIPT)(`on a terminal${reason}`, () => {
  it("documents upload draws a progress bar on stderr and prints the document id", async () => {
    // About 4 MiB, so that the bar has something to show.
    const file = join(suite.home.dir, "big.pdf");
    writeFileSync(
      file,
      Buffer.concat([smallPdf("terminal"), Buffer.from(`% ${"x".repeat(80)}\n`.repeat(50_000), "latin1")]),
    );
    const screen = await onTerminal("upload-progress", `node '${LRG}' documents upload big.pdf --type TR1`);
    expect(screen).toMatch(/big\.pdf uploaded +\[[^\]]+\] 100% (\d+)\/\1 bytes/);
    expect(screen).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/m);
    expect(screen).toContain("EXIT=0");
  });

  it("applications show draws the information as tables", async () => {
    const client = suite.gateway.client(suite.user);
    const uploaded = await client.uploadDocument(smallPdf("table"), { documentType: "TR1" });
    const { application_request_id: id } = await client.applications.submit(
      submission(uploaded.document_id, "CLI-TERMINAL"),
    );
    while ((await client.applications.information(id)).status !== "ACCEPTED_PRIORITY_PROTECTED")
      await new Promise((resolve) => setTimeout(resolve, 100));
    await suite.gateway.sandbox.POST("/sandbox/v1/applications/{id}/correspondence", {
      params: { path: { id } },
      body: { documents: ["RCS"] },
    });
    const screen = await onTerminal("application-table", `node '${LRG}' applications show ${id}`);
    expect(screen).toMatch(/^Application: +[0-9a-f-]{36}$/m);
    expect(screen).toMatch(/^Status: +ACCEPTED_PRIORITY_PROTECTED$/m);
    expect(screen).toMatch(/^Correspondence \(1\)$/m);
    expect(screen).toMatch(/^ {2}RECORD +CODE +NAME +CREATED +DOWNLOAD ID$/m);
    expect(screen).toMatch(/^ {2}\S+ +RCS +.+ [0-9a-f]{64}$/m);
    expect(screen).toContain("EXIT=0");
  });
});
