#!/usr/bin/env node
// `lrg-check`: a package's type check and its lint, from one TypeScript program. `tsc --noEmit` and a type-aware
// `eslint .` each built and checked the package's whole program (the gateway: 12 s and 25 s); here the compiler
// checks it once, and ESLint's type-aware rules read the types the check has already computed.
// Run from a package's folder: it reads ./tsconfig.json and lints "." with the workspace's eslint.config.js.
import { resolve } from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { TYPE_AWARE_FILES } from "../../eslint.config.js";

const cwd = process.cwd();

/** The package's program, as `tsc -p tsconfig.json` builds it, and everything the compiler finds wrong in it. */
function typeCheck() {
  const configErrors = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    resolve(cwd, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic) },
  );
  if (parsed === undefined) return { program: undefined, diagnostics: configErrors };
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: parsed.errors,
  });
  return { program, diagnostics: [...configErrors, ...ts.getPreEmitDiagnostics(program)] };
}

const { program, diagnostics } = typeCheck();
if (diagnostics.length > 0) {
  const host = { getCurrentDirectory: () => cwd, getCanonicalFileName: (name) => name, getNewLine: () => "\n" };
  process.stdout.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
}

// The type-aware block of eslint.config.js names its files; they get this program instead of a project service.
const eslint = new ESLint({
  cwd,
  overrideConfig: program
    ? [
        {
          files: TYPE_AWARE_FILES,
          languageOptions: { parserOptions: { projectService: false, programs: [program] } },
        },
      ]
    : [],
});
const results = await eslint.lintFiles(["."]);
const report = await (await eslint.loadFormatter("stylish")).format(results);
if (report) process.stdout.write(report);

const lintErrors = results.reduce((count, result) => count + result.errorCount, 0);
const typeErrors = diagnostics.filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error).length;
if (typeErrors > 0 || lintErrors > 0) {
  console.error(`lrg-check: ${typeErrors} type error(s), ${lintErrors} lint error(s)`);
  process.exit(1);
}
