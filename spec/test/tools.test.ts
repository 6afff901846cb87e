// The common tools integrators generate clients and tests with read both bundled documents without an
// error: Spectral, openapi-typescript, Prism and Redocly Respect. Each CLI runs once per document (the JSON and
// the YAML are proved equal, so each tool reads one of them); the last block shows every check failing on a
// deliberately broken copy, so a green run means something.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { JsonObject } from "../src/index.js";
import {
  openapiTypescriptProblems,
  respectProblems,
  scratch,
  spectralProblems,
  startPrism,
  type PrismMock,
} from "./tools.js";

const dist = join(import.meta.dirname, "..", "dist");
/** A bundled document as written (with its references), parsed. */
const loadBundle = (file: string) => JSON.parse(readFileSync(join(dist, file), "utf8")) as JsonObject;
const SLOW = 600_000;

const DOCUMENTS = ["openapi", "sandbox"] as const;
// One Prism mock per document, shared by the checks below (Respect's runs are answered by it).
const mocks = new Map<string, PrismMock>();
beforeAll(async () => {
  const started = await Promise.all(DOCUMENTS.map((name) => startPrism(join(dist, `${name}.yaml`))));
  DOCUMENTS.forEach((name, index) => mocks.set(name, started[index] as PrismMock));
}, SLOW);
afterAll(() => {
  for (const mock of mocks.values()) mock.stop();
});

/** Writes a changed copy of the bundled openapi document and returns its path. */
function brokenCopy(change: (document: JsonObject) => void): string {
  const document = loadBundle("openapi.json");
  change(document);
  const file = join(scratch(), "openapi.json");
  writeFileSync(file, JSON.stringify(document));
  return file;
}

// A reference to a schema that does not exist: every reader must refuse it.
const dangling = brokenCopy((document) => {
  const schemas = (document["components"] as JsonObject)["schemas"] as JsonObject;
  ((schemas["NotificationV1Base"] as JsonObject)["properties"] as JsonObject)["status"] = {
    $ref: "#/components/schemas/NoSuchSchema",
  };
});

// Spectral runs once over both documents and the broken copy below; each test reads its file's problems.
let spectralRun: Promise<Map<string, string[]>> | undefined;
const spectralOf = async (file: string): Promise<string[]> =>
  (await (spectralRun ??= spectralProblems([...DOCUMENTS.map((name) => join(dist, `${name}.yaml`)), dangling]))).get(
    file,
  ) ?? [`no Spectral result for ${file}`];

describe.concurrent.each(DOCUMENTS)("the %s document", (name) => {
  const json = join(dist, `${name}.json`);
  const yaml = join(dist, `${name}.yaml`);

  it("is the same document in JSON and YAML, so a tool reading either reads both", () => {
    expect(parse(readFileSync(yaml, "utf8"))).toEqual(loadBundle(`${name}.json`));
  });

  it(
    "has no Spectral error or warning (spectral:oas)",
    async () => {
      expect(await spectralOf(yaml)).toEqual([]);
    },
    SLOW,
  );

  it(
    "generates TypeScript types with openapi-typescript",
    async () => {
      expect(await openapiTypescriptProblems(json)).toEqual([]);
    },
    SLOW,
  );

  it("is served by Prism", () => {
    expect(mocks.get(name)?.problems).toEqual([]);
  });

  it(
    "passes Redocly Respect's checks on every operation, answered by Prism",
    async () => {
      const url = mocks.get(name)?.url;
      expect(url).toBeDefined();
      expect(await respectProblems(json, url ?? "")).toEqual([]);
    },
    SLOW,
  );
});

describe.concurrent("each check fails on a broken copy", () => {
  it(
    "Spectral reports the dangling reference",
    async () => {
      expect((await spectralOf(dangling)).join("\n")).toMatch(/NoSuchSchema/);
    },
    SLOW,
  );

  it(
    "openapi-typescript fails on the dangling reference",
    async () => {
      expect((await openapiTypescriptProblems(dangling)).join("\n")).toMatch(/Can't resolve \$ref/);
    },
    SLOW,
  );

  it(
    "Prism does not serve the dangling reference",
    async () => {
      const prism = await startPrism(dangling);
      prism.stop();
      expect(prism.problems.join("\n")).toMatch(/NoSuchSchema.* does not exist/);
    },
    SLOW,
  );

  it(
    "Respect cannot compile the notification discriminator with each type's const inside allOf (the old shape)",
    async () => {
      const oldShape = brokenCopy((document) => {
        const schemas = (document["components"] as JsonObject)["schemas"] as JsonObject;
        for (const member of Object.values(schemas) as JsonObject[]) {
          const allOf = member["allOf"] as JsonObject[] | undefined;
          const own = member["properties"] as JsonObject | undefined;
          if (!allOf || !own?.["notification_type"]) continue;
          const extra = allOf[1] as JsonObject;
          extra["properties"] = { ...own, ...(extra["properties"] as JsonObject) };
          delete member["properties"];
        }
      });
      // Prism serves the good document; Respect checks its answers against the old shape.
      const url = mocks.get("openapi")?.url ?? "";
      expect((await respectProblems(oldShape, url)).join("\n")).toMatch(/values must be unique strings/);
    },
    SLOW,
  );
});
