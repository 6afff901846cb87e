// Entry point of `lrg`: runs the program and turns any error into one line on stderr and a documented exit code.
import { CommanderError } from "commander";
import { EXIT, ExitWith, reportOf } from "./conventions.js";
import { argumentsToParse, buildProgram } from "./program.js";
import { closeAll } from "./runtime.js";

async function main(): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argumentsToParse(program, process.argv));
    return EXIT.ok;
  } catch (error) {
    if (
      error instanceof CommanderError &&
      (error.code === "commander.helpDisplayed" || error.code === "commander.version")
    )
      return EXIT.ok;
    // A group without its subcommand: commander printed the help on stderr.
    if (error instanceof CommanderError && error.code === "commander.help") return EXIT.usage;
    if (error instanceof ExitWith) return error.exitCode;
    const report = reportOf(error);
    const json = process.argv.includes("--json");
    process.stderr.write(`${json ? JSON.stringify(report.json) : report.lines.join("\n")}\n`);
    return report.exitCode;
  } finally {
    await closeAll();
  }
}

const code = await main();
// A follow loop's timers or a keep-alive socket must not hold the process once the command is done.
process.exit(code);
