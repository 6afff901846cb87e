// The check (`lrg-check`: the compiler over the gateway's program) refuses a handler that answers what its operation
// does not document. Each case is a small handler written against the gateway's own handler types, compiled in
// memory beside the real sources with the gateway's compiler options, as `lrg-check` compiles them.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const gateway = resolve(here, "../..");

const imports = `
import type { Readable } from "node:stream";
import type { components, RegistryOperations, SandboxOperations } from "../../src/operation-types.js";
import type { Handler, JsonText } from "../../src/routing.js";
declare const pdf: Readable;
declare const v1Page: JsonText<components["schemas"]["NotificationListV1"]>;
`;

/** What a case's handler must do to the check: compile, or fail with a message that names the fault. */
type Want = { compiles: true } | { fails: string };

const cases: [string, { given: string; want: Want }][] = [
  [
    "a JSON body of the documented shape",
    {
      given: `export const h: Handler<RegistryOperations["submitApplication"]> = async () => ({
        status: 202, headers: { location: "/v0/applications/a/information" }, body: { data: { application_request_id: "a" } } });`,
      want: { compiles: true },
    },
  ],
  [
    "a member of the wrong type",
    {
      given: `export const h: Handler<RegistryOperations["submitApplication"]> = async () => ({
        status: 202, body: { data: { application_request_id: 7 } } });`,
      want: { fails: "Type 'number' is not assignable to type 'string'" },
    },
  ],
  [
    "a misspelt member",
    {
      given: `export const h: Handler<RegistryOperations["submitApplication"]> = async () => ({
        status: 202, body: { data: { application_requestid: "a" } } });`,
      want: { fails: "Property 'application_request_id' is missing" },
    },
  ],
  [
    "a missing required member",
    {
      given: `export const h: Handler<RegistryOperations["getApplicationInformation"]> = async () => ({
        status: 200,
        body: { data: { application_request_id: "a", correspondence: [], errors: [], warnings: [] } } });`,
      want: { fails: "Property 'status' is missing" },
    },
  ],
  [
    "a value outside a member's enum",
    {
      given: `export const h: Handler<RegistryOperations["getApplicationInformation"]> = async () => ({
        status: 200,
        body: { data: { status: "LOST", application_request_id: "a", correspondence: [], errors: [], warnings: [] } } });`,
      want: { fails: `Type '"LOST"' is not assignable to type` },
    },
  ],
  [
    "a status the operation does not document",
    {
      given: `export const h: Handler<RegistryOperations["submitApplication"]> = async () => ({
        status: 201, body: { data: { application_request_id: "a" } } });`,
      want: { fails: "Type '201' is not assignable to type" },
    },
  ],
  [
    "no body where the spec gives none",
    {
      given: `export const h: Handler<RegistryOperations["attachMessage"]> = async () => ({ status: 202 });`,
      want: { compiles: true },
    },
  ],
  [
    "a body where the spec gives none",
    {
      given: `export const h: Handler<RegistryOperations["attachMessage"]> = async () => ({ status: 202, body: {} });`,
      want: { fails: "Type '{}' is not assignable to type 'never'" },
    },
  ],
  [
    "no body where the spec gives one",
    {
      given: `export const h: Handler<RegistryOperations["getApplicationInformation"]> = async () => ({ status: 200 });`,
      want: { fails: "Property 'body' is missing" },
    },
  ],
  [
    "a document's bytes streamed",
    {
      given: `export const h: Handler<RegistryOperations["fetchDocumentContent"]> = async () => ({
        status: 200, headers: { "content-type": "application/pdf" }, body: pdf });`,
      want: { compiles: true },
    },
  ],
  [
    "a document answered as JSON",
    {
      given: `export const h: Handler<RegistryOperations["fetchDocumentContent"]> = async () => ({
        status: 200, body: { data: "bytes" } });`,
      want: { fails: "is not assignable to type 'Bytes'" },
    },
  ],
  [
    "a readiness report as text",
    {
      given: `export const h: Handler<SandboxOperations["getReadinessRunJunit"]> = async () => ({
        status: 200, headers: { "content-type": "application/xml; charset=utf-8" }, body: "<testsuites/>" });`,
      want: { compiles: true },
    },
  ],
  [
    "a readiness report as a number",
    {
      given: `export const h: Handler<SandboxOperations["getReadinessRunHtml"]> = async () => ({ status: 200, body: 200 });`,
      want: { fails: "Type 'number' is not assignable to type" },
    },
  ],
  [
    "a page of notifications as its JSON text",
    {
      given: `export const h: Handler<RegistryOperations["listNotificationsV1"]> = async () => ({ status: 200, body: v1Page });`,
      want: { compiles: true },
    },
  ],
  [
    "the other version's page as JSON text",
    {
      given: `export const h: Handler<RegistryOperations["listNotificationsV0"]> = async () => ({ status: 200, body: v1Page });`,
      want: { fails: "Types of property 'body' are incompatible" },
    },
  ],
  [
    "text that is no JSON of the schema",
    {
      given: `export const h: Handler<RegistryOperations["listNotificationsV1"]> = async () => ({ status: 200, body: "{}" });`,
      want: { fails: "Type 'string' is not assignable to type '{ data:" },
    },
  ],
  [
    "a control-plane answer of the wrong shape",
    {
      given: `export const h: Handler<SandboxOperations["getClock"]> = async () => ({ status: 200, body: { now: 0 } });`,
      want: { fails: "Type 'number' is not assignable to type 'string'" },
    },
  ],
];

/** The compiler's errors on each case's file, the cases compiled as one program with the gateway's options. */
function errorsOf(sources: Map<string, string>): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(gateway, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error("tsconfig.json of the gateway was not read");
  const host = ts.createCompilerHost(config.options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const text = sources.get(fileName);
    return text === undefined
      ? read(fileName, languageVersion, ...rest)
      : ts.createSourceFile(fileName, text, languageVersion);
  };
  const exists = host.fileExists.bind(host);
  host.fileExists = (fileName) => sources.has(fileName) || exists(fileName);
  const program = ts.createProgram({ rootNames: [...sources.keys()], options: config.options, host });
  return new Map(
    [...sources.keys()].map((fileName) => {
      const file = program.getSourceFile(fileName);
      const diagnostics = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
      return [fileName, diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))];
    }),
  );
}

describe("the check refuses a handler that answers what its operation does not document", () => {
  // Beside this test, so that the cases import the sources as a test of this folder would.
  const files = new Map(cases.map(([, { given }], index) => [join(here, `answer-case-${index}.ts`), imports + given]));
  let errors = new Map<string, string[]>();
  beforeAll(() => {
    errors = errorsOf(files);
  });

  it.each(cases.map(([name, { want }], index) => [name, want, [...files.keys()][index] ?? ""] as const))(
    "%s",
    (_name, want, fileName) => {
      const found = errors.get(fileName);
      expect(found).toBeDefined();
      if ("compiles" in want) expect(found).toEqual([]);
      else expect(found?.join("\n")).toContain(want.fails);
    },
  );
});
