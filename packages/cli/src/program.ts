// The command tree of `lrg` (commander). Every command has an example in its help; the global flags are valid
// after any command.
import { readFileSync } from "node:fs";
import { Command } from "commander";
import { UsageError } from "./conventions.js";
import { registerProfile } from "./commands/profile.js";
import { registerNotifications } from "./commands/notifications.js";
import { registerDocuments } from "./commands/documents.js";
import { registerApplications } from "./commands/applications.js";
import { registerTitles } from "./commands/titles.js";
import { registerSandbox } from "./commands/sandbox.js";
import { registerReadiness } from "./commands/readiness.js";
import { registerConformance } from "./commands/conformance.js";
import { allCommands, bashCompletion, zshCompletion } from "./completion.js";
import { subcommand } from "./runtime.js";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

const EXIT_CODES = `
Exit codes:
  0  done
  1  the API refused (its problem code and detail, then each failing member with its pointer)
  2  usage: a wrong flag, a missing file or profile; nothing was sent
  3  network: the gateway could not be reached
  4  timeout: applications watch --timeout ran out first
  10, 11, 12  applications watch: the application ended VALIDATION_FAILED, CANCELLED, SYSTEM_ERROR

Environment: LRG_BASE_URL, LRG_USERNAME, LRG_PASSWORD, LRG_CERT, LRG_KEY, LRG_CA and LRG_SANDBOX_TOKEN make the
connection on their own: when any is set, no setting is read from the current profile (lrg warns; --profile NAME
still wins). LRG_PROFILE chooses the profile otherwise. NO_COLOR turns colour off; XDG_CONFIG_HOME and
XDG_STATE_HOME move the config and state files.
`;

/** Builds the program (a new one each time: tests and the completion generator walk it). */
export function buildProgram(): Command {
  const program = new Command("lrg")
    .description("The command line of the Land Registration Gateway")
    .version(version)
    .option("--profile <name>", "use this profile instead of the current one")
    .option("--url <url>", "the gateway's address (overrides the profile and LRG_BASE_URL)")
    .option("--json", "print results as JSON (one value, or one JSON line per item when following)")
    .option("--verbose", "print each request and its status on stderr (never headers or secrets)")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ outputError: () => undefined })
    .addHelpText("after", `\nExample:\n  $ lrg --profile sandbox notifications tail --ack\n${EXIT_CODES}`);
  // Global flags are accepted after the command too (`lrg notifications list --json`).
  program.enablePositionalOptions(false);
  registerProfile(program);
  registerNotifications(program);
  registerDocuments(program);
  registerApplications(program);
  registerTitles(program);
  registerSandbox(program);
  registerReadiness(program);
  registerConformance(program);
  subcommand(program, "completion <shell>", "Print the completion script for bash or zsh", [
    "lrg completion bash > ~/.lrg-completion.bash && echo 'source ~/.lrg-completion.bash' >> ~/.bashrc",
    "source <(lrg completion bash)",
    'lrg completion zsh > "${fpath[1]}/_lrg"',
  ]).action((shell: string) => {
    if (shell !== "bash" && shell !== "zsh") throw new UsageError(`completion is for bash or zsh (got ${shell})`);
    process.stdout.write(shell === "bash" ? bashCompletion(program) : zshCompletion(program));
  });
  for (const command of allCommands(program)) command.exitOverride().configureOutput({ outputError: () => undefined });
  return program;
}
