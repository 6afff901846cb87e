// Runs the code blocks of a guide or README as a reader would paste them: shell blocks with bash, TypeScript
// blocks turned into JavaScript and run with node, in page order, in one scratch directory per page; and checks the
// TypeScript blocks of every page against @lrg/client's types, in one compiler run. The rules (which blocks run, how
// to mark one that does not) are in apps/docs/README.md.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";

/** The repository root, seen from this file. */
export const REPO_ROOT = join(import.meta.dirname, "..", "..", "..", "..");

const SHELL = new Set(["sh", "bash", "shell"]);
const TYPESCRIPT = new Set(["ts", "typescript"]);
/** Transcripts of an exchange or of data, never run; the runnable form sits beside them (a curl, a snippet). */
const TRANSCRIPT = new Set(["http", "json", "text"]);

const NOT_RUN = /^<!--\s*not-run:\s*(.+?)\s*-->$/;
const CAPTION = /^\/\/ file: ([\w.-]+\.ts)\b/;

/** One fenced code block of a page. */
export interface CodeBlock {
  /** The info string's first word, lower case ("" when the fence has none). */
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The reason given by a `<!-- not-run: reason -->` comment on the line before the fence. */
  notRun?: string;
  /** For TypeScript, the file named by its `// file: name.ts` caption. */
  file?: string;
  /** The heading the block sits under. */
  section: string;
}

/** The fenced code blocks of a Markdown page, with their marks. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  let section = "";
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    const heading = /^#{1,6} (.+)$/.exec(line);
    if (heading?.[1] !== undefined) section = heading[1];
    // A fence may be indented (a block inside a list item); its lines lose that indentation.
    const fence = /^( *)(`{3,})\s*([\w-]*)/.exec(line);
    if (fence?.[2] === undefined) continue;
    const indent = fence[1]?.length ?? 0;
    const close = lines.findIndex((candidate, at) => at > index && /^ *`{3,}\s*$/.test(candidate));
    if (close < 0) throw new Error(`line ${index + 1}: a code fence that is never closed`);
    const code = lines
      .slice(index + 1, close)
      .map((text) => text.slice(Math.min(indent, text.length - text.trimStart().length)))
      .join("\n");
    // The mark is one of the HTML comments right above the fence (another may name the block's source file).
    let notRun: string | undefined;
    for (let before = index - 1; before >= 0; before -= 1) {
      const text = (lines[before] ?? "").trim();
      if (text === "") continue;
      if (!/^<!--.*-->$/.test(text)) break;
      notRun ??= NOT_RUN.exec(text)?.[1];
    }
    const lang = (fence[3] ?? "").toLowerCase();
    const file = TYPESCRIPT.has(lang) ? CAPTION.exec(code)?.[1] : undefined;
    blocks.push({
      lang,
      code,
      line: index + 1,
      section,
      ...(notRun !== undefined && { notRun }),
      ...(file !== undefined && { file }),
    });
    index = close;
  }
  return blocks;
}

/** What is wrong with a page's blocks before anything runs: a block that is neither runnable nor marked, a snippet with no file name. */
export function blockProblems(blocks: readonly CodeBlock[]): string[] {
  const problems: string[] = [];
  for (const block of blocks) {
    const where = `line ${block.line} (${block.lang || "no language"})`;
    if (TYPESCRIPT.has(block.lang) && block.file === undefined)
      problems.push(`${where}: a TypeScript block must start with \`// file: <name>.ts\``);
    if (
      !SHELL.has(block.lang) &&
      !TYPESCRIPT.has(block.lang) &&
      !TRANSCRIPT.has(block.lang) &&
      block.notRun === undefined
    ) {
      problems.push(
        `${where}: not a runnable language (sh, ts) nor a transcript (http, json, text), and not marked <!-- not-run: reason -->`,
      );
    }
    if (block.lang === "json" && block.notRun === undefined) {
      try {
        JSON.parse(block.code);
      } catch (error) {
        problems.push(
          `${where}: JSON that does not parse (${(error as Error).message}); mark it <!-- not-run: reason --> if it is deliberately partial`,
        );
      }
    }
  }
  return problems;
}

/** `curl` commands of runnable shell blocks that would not fail on an error answer (no `--fail-with-body`, no `-w '%{http_code}'`). */
export function curlsThatCannotFail(blocks: readonly CodeBlock[]): string[] {
  return blocks
    .filter((block) => SHELL.has(block.lang) && block.notRun === undefined)
    .flatMap((block) =>
      block.code
        .replace(/\\\n/g, " ")
        .split(/\n|\||&&|;|\$\(/)
        // A command that captures the status (-w '%{http_code}') is checked by the block itself.
        .filter(
          (command) =>
            /(^|\s)curl\s/.test(command) && !command.includes("--fail-with-body") && !command.includes("%{http_code}"),
        )
        .map((command) => `line ${block.line}: ${command.trim()}`),
    );
}

/** Request lines of `http` transcripts (not responses) whose section has no runnable curl command. */
export function exchangesWithoutCurl(blocks: readonly CodeBlock[]): string[] {
  const curlSections = new Set(
    blocks.filter((block) => SHELL.has(block.lang) && /\bcurl\b/.test(block.code)).map((block) => block.section),
  );
  return blocks
    .filter(
      (block) => block.lang === "http" && /^[A-Z]+ \S+ HTTP\/1\.1/.test(block.code) && !curlSections.has(block.section),
    )
    .map((block) => `line ${block.line} (${block.section}): ${block.code.split("\n")[0] ?? ""}`);
}

/** Where a page runs: the addresses and files of the gateway the test started, and what the blocks see. */
export interface RunEnvironment {
  /** Literal replacements in every runnable block: the documented default address → the test's. */
  substitutions: readonly (readonly [string, string])[];
  /** Environment variables of every block (added to PATH and HOME). */
  env: Record<string, string>;
  /** The scratch directory the blocks run in (made if missing). */
  workDir: string;
  /** Time a single block may take. */
  blockTimeoutMs?: number;
}

/** One block that ran. */
export interface BlockRun {
  block: CodeBlock;
  stdout: string;
  stderr: string;
}

/** A block that failed: its page line and output are in the message. */
export class ExampleError extends Error {
  constructor(
    message: string,
    readonly block: CodeBlock | undefined,
  ) {
    super(message);
    this.name = "ExampleError";
  }
}

const substitute = (code: string, substitutions: RunEnvironment["substitutions"]): string =>
  substitutions.reduce((text, [from, to]) => text.split(from).join(to), code);

/** The workspace packages a snippet may import, installed in the scratch project by path. */
const PACKAGES = { client: join("packages", "client"), mock: join("apps", "mock") };

/** Where the variables a shell block set are kept for the page's next blocks. */
const STATE = ".state";

/** Where `prepare` puts the `lrg` command, first on the blocks' PATH. */
const BIN = ".bin";

/** The blocks' HOME (lrg's profiles go there): a reader's home is not the repository root. */
const HOME = ".home";

/** Where the snippets' JavaScript is written and run from. */
const OUT = ".out";

/**
 * The one folder the guides write their files in (`lrg-try/`, ignored by git), beside the snippets saved there: a
 * reader who follows them leaves nothing else in the repository root.
 */
export const SCRATCH_FOLDER = "lrg-try";

/** What the runner itself keeps in the scratch directory (the repository root of the pages): not the pages' files. */
const RUNNER_ENTRIES = new Set([BIN, STATE, HOME, OUT, "node_modules", "package.json", "examples", "packages"]);

/**
 * What the blocks left in the scratch directory, the pages' repository root, beside what was `before` and the
 * runner's own: each entry a file or folder a reader would find untracked in their checkout.
 */
export function leftInRepositoryRoot(workDir: string, before: ReadonlySet<string>): string[] {
  return readdirSync(workDir)
    .filter((entry) => !before.has(entry) && !RUNNER_ENTRIES.has(entry) && entry !== SCRATCH_FOLDER)
    .sort();
}

/**
 * Sets up the scratch directory: copies of examples/ and packages/cli/examples/ (the paths the pages name), the
 * built `lrg` as a command on PATH (as `npm link` would put it), and an ES module project with the packages installed.
 */
function prepare(workDir: string): void {
  // Pages run in sequence may share one scratch directory (one machine, one HOME): set up what is missing only.
  if (existsSync(join(workDir, BIN))) return;
  mkdirSync(join(workDir, "node_modules", "@lrg"), { recursive: true });
  cpSync(join(REPO_ROOT, "examples"), join(workDir, "examples"), { recursive: true });
  cpSync(join(REPO_ROOT, "packages", "cli", "examples"), join(workDir, "packages", "cli", "examples"), {
    recursive: true,
  });
  mkdirSync(join(workDir, BIN));
  mkdirSync(join(workDir, HOME));
  const lrg = join(REPO_ROOT, "packages", "cli", "bin", "lrg.js");
  writeFileSync(join(workDir, BIN, "lrg"), `#!/bin/sh\nexec "${process.execPath}" "${lrg}" "$@"\n`, { mode: 0o755 });
  // Each package by path, as `npm install <path to the package>` would link it.
  for (const [name, path] of Object.entries(PACKAGES))
    symlinkSync(join(REPO_ROOT, path), join(workDir, "node_modules", "@lrg", name), "dir");
  writeFileSync(join(workDir, "package.json"), JSON.stringify({ private: true, type: "module" }, null, 2));
}

/** The snippet files of a page, by name: each the concatenation of its blocks (a later block with the same caption continues it). */
function snippetFiles(
  runnable: readonly CodeBlock[],
  substitutions: RunEnvironment["substitutions"],
): Map<string, string> {
  const files = new Map<string, string[]>();
  for (const block of runnable) {
    if (block.file !== undefined)
      files.set(block.file, [...(files.get(block.file) ?? []), substitute(block.code, substitutions)]);
  }
  return new Map([...files].map(([name, parts]) => [name, `${parts.join("\n\n")}\n`]));
}

const runnableBlocks = (blocks: readonly CodeBlock[]): CodeBlock[] =>
  blocks.filter((block) => block.notRun === undefined && (SHELL.has(block.lang) || TYPESCRIPT.has(block.lang)));

/**
 * Type-checks the TypeScript snippets of `pages` (path → Markdown) in one `tsc` run, strict and `NodeNext`, against
 * the built `@lrg/client` as `npm install` would link it: one program, so that the client's types are read once
 * rather than once per page. Each page's files sit in a folder of their own (`workDir/<n>/`), as in its own scratch
 * directory. A snippet marked not-run is compiled too: it cannot run here, but a reader still pastes it. Answers the
 * compiler's messages by page; a page that compiles is absent.
 */
export async function typeCheckPages(
  pages: ReadonlyMap<string, string>,
  workDir: string,
): Promise<Map<string, string>> {
  prepare(workDir);
  const folders = new Map<string, string>();
  for (const [path, markdown] of pages) {
    const files = snippetFiles(
      codeBlocks(markdown).filter((block) => TYPESCRIPT.has(block.lang)),
      [],
    );
    if (files.size === 0) continue;
    const folder = `page-${folders.size + 1}`;
    folders.set(folder, path);
    mkdirSync(join(workDir, folder));
    for (const [name, text] of files) writeFileSync(join(workDir, folder, name), text);
  }
  if (folders.size === 0) return new Map();
  writeFileSync(
    join(workDir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        moduleDetection: "force",
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        types: ["node"],
        typeRoots: [join(import.meta.dirname, "..", "..", "node_modules", "@types")],
      },
      include: ["page-*/*.ts"],
    }),
  );
  const tsc = await run(
    process.execPath,
    [join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", workDir, "--pretty", "false"],
    workDir,
    {},
    600_000,
  );
  const problems = new Map<string, string>();
  let page: string | undefined;
  // A message starts with its file (`page-3/upload.ts(5,1): error ...`); the lines after it, indented, continue it.
  for (const line of `${tsc.stdout}${tsc.stderr}`.split("\n")) {
    const folder = /^(page-\d+)\//.exec(line)?.[1];
    if (folder !== undefined) page = folders.get(folder);
    const key = page ?? "(no page)";
    if (line.trim() !== "") problems.set(key, `${problems.get(key) ?? ""}${line.replace(/^page-\d+\//, "")}\n`);
  }
  if (tsc.status !== 0 && problems.size === 0) problems.set("(no page)", `tsc exited with status ${tsc.status}`);
  return problems;
}

function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${timeoutMs} ms)`;
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/**
 * Runs every runnable block of `markdown` in order and answers what each printed; throws an ExampleError naming
 * the first block that failed (a shell command that exits non-zero, a snippet that does not compile or throws).
 */
export async function runPage(markdown: string, environment: RunEnvironment): Promise<BlockRun[]> {
  const blocks = codeBlocks(markdown);
  const problems = [
    ...blockProblems(blocks),
    ...curlsThatCannotFail(blocks).map(
      (curl) => `${curl}: add --fail-with-body, so that an error answer fails the block`,
    ),
  ];
  if (problems.length > 0) throw new ExampleError(problems.join("\n"), undefined);
  const runnable = runnableBlocks(blocks);
  const { workDir, substitutions } = environment;
  // Generous: CI runs every package's tests at once on two cores, and a compile then takes a minute.
  const timeoutMs = environment.blockTimeoutMs ?? 240_000;
  // One HOME for the pages of a scratch directory, so that what a block keeps there (lrg's profiles) goes with it.
  const env = {
    PATH: `${join(workDir, BIN)}:${process.env["PATH"] ?? "/usr/bin:/bin"}`,
    HOME: join(workDir, HOME),
    ...environment.env,
  };
  prepare(workDir);
  // Each page starts in a new terminal: no variable of an earlier page's blocks (its files and HOME stay).
  rmSync(join(workDir, STATE), { force: true });

  // Each snippet is saved in lrg-try/, as the guides say, and becomes JavaScript in .out/, types erased:
  // typeCheckPages checks them.
  for (const [name, text] of snippetFiles(runnable, substitutions)) {
    mkdirSync(join(workDir, SCRATCH_FOLDER), { recursive: true });
    writeFileSync(join(workDir, SCRATCH_FOLDER, name), text);
    const output = ts.transpileModule(text, {
      fileName: name,
      reportDiagnostics: true,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022 },
    });
    if ((output.diagnostics ?? []).length > 0)
      throw new ExampleError(
        `${name} does not parse: ${ts.flattenDiagnosticMessageText(output.diagnostics?.[0]?.messageText, "\n")}`,
        runnable.find((block) => block.file === name),
      );
    const javascript = join(workDir, OUT, name.replace(/\.ts$/, ".js"));
    mkdirSync(dirname(javascript), { recursive: true });
    writeFileSync(javascript, output.outputText);
  }

  const runs: BlockRun[] = [];
  const lastBlockOf = new Map(runnable.filter((block) => block.file !== undefined).map((block) => [block.file, block]));
  for (const block of runnable) {
    let result;
    if (SHELL.has(block.lang)) {
      // The variables a block sets (arrays too) are saved after it and read before the next, as in one terminal.
      const script = [
        "set -euo pipefail",
        "__lrg_before=$(compgen -v | sort)",
        `if [ -f ${STATE} ]; then . ./${STATE}; fi`,
        substitute(block.code, substitutions),
        "__lrg_names=$(comm -13 <(echo \"$__lrg_before\") <(compgen -v | sort) | grep -v '^__lrg_' || true)",
        `for __lrg_name in $__lrg_names; do declare -p "$__lrg_name"; done > ${STATE}`,
        "",
      ].join("\n");
      result = await run("bash", ["-c", script], workDir, env, timeoutMs);
    } else if (lastBlockOf.get(block.file) === block && block.file !== undefined) {
      // Run from the same terminal: the variables its shell blocks exported are in the snippet's environment.
      const script = `if [ -f ${STATE} ]; then . ./${STATE}; fi; exec "$0" "$1"`;
      const javascript = join(OUT, block.file.replace(/\.ts$/, ".js"));
      result = await run("bash", ["-c", script, process.execPath, javascript], workDir, env, timeoutMs);
    } else {
      continue;
    }
    if (result.status !== 0) {
      throw new ExampleError(
        `the ${block.lang} block at line ${block.line}${block.file ? ` (${block.file})` : ""} failed with exit status ${result.status}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
        block,
      );
    }
    runs.push({ block, stdout: result.stdout, stderr: result.stderr });
  }
  return runs;
}
