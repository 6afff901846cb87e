// The command tree of `lrg` (commander). Every command has an example in its help; the global flags are valid
// after any command.
import { readFileSync } from "node:fs";
import { Command, type Option } from "commander";
import { UsageError } from "./conventions.js";
import { registerProfile } from "./commands/profile.js";
import { registerNotifications } from "./commands/notifications.js";
import { registerDocuments } from "./commands/documents.js";
import { registerApplications } from "./commands/applications.js";
import { registerTitles } from "./commands/titles.js";
import { registerSandbox } from "./commands/sandbox.js";
import { registerReadiness } from "./commands/readiness.js";
import { registerConformance } from "./commands/conformance.js";
import { registerDrift } from "./commands/drift.js";
import { registerSpec } from "./commands/spec.js";
import { registerRecord } from "./commands/record.js";
import { registerReplay } from "./commands/replay.js";
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
  drift: 1 the recording holds findings; spec diff: 1 a change at --fail-on (or, with --changelog, not releasable)

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
  registerDrift(program);
  registerSpec(program);
  registerRecord(program);
  registerReplay(program);
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

/** The flags that answer without running a command: commander honours them before it looks for the command. */
const ANSWERING_FLAGS = new Set(["-h", "--help", "-V", "--version"]);

/**
 * The arguments to parse (`argv` as `process.argv` gives it): as given, but without the help and version flags when
 * they follow a command that does not exist. Commander answers `--help` before it looks for the command, so
 * `lrg teleport --help` would print the usage and exit 0 where `lrg teleport` fails "unknown command" (2): a script
 * probing for a command could not tell that it is missing.
 */
export function argumentsToParse(program: Command, argv: readonly string[]): string[] {
  const [node = "node", script = "lrg", ...args] = argv;
  if (unknownCommandIn(program, args) === undefined) return [...argv];
  const end = args.includes("--") ? args.indexOf("--") : args.length;
  return [node, script, ...args.slice(0, end).filter((arg) => !ANSWERING_FLAGS.has(arg)), ...args.slice(end)];
}

/**
 * The first word of `args` where a command is expected that names none (`teleport` in `lrg teleport`, `nope` in
 * `lrg notifications nope`), or undefined. The values of options (`--profile NAME`) are not words; the
 * arguments of a command that has no subcommands are not either.
 */
function unknownCommandIn(program: Command, args: readonly string[]): string | undefined {
  let command = program;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === "--") return undefined;
    if (arg.length > 1 && arg.startsWith("-")) {
      const option = arg.includes("=") ? undefined : optionOf(command, arg);
      const next = args[i + 1];
      if (option?.required || (option?.optional && next !== undefined && !next.startsWith("-"))) i += 1;
      continue;
    }
    if (command.commands.length === 0 || command.registeredArguments.length > 0) return undefined;
    const found = command.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    // `lrg help NAME` is commander's own command.
    if (found === undefined) return arg === "help" ? undefined : arg;
    command = found;
  }
  return undefined;
}

/** The option `flag` names on `command` or one of its ancestors (global flags are valid after any command). */
function optionOf(command: Command, flag: string): Option | undefined {
  for (let c: Command | null = command; c !== null; c = c.parent) {
    const option = c.options.find((o) => o.long === flag || o.short === flag);
    if (option) return option;
  }
  return undefined;
}
