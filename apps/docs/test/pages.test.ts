// What the guides and READMEs tell a reader, held to what the gateway does: rules that running the examples cannot
// show (an error code a page only names, a rule said in words), each said the one way the gateway behaves.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./support/examples.js";

const read = (path: string): string => readFileSync(join(REPO_ROOT, path), "utf8");
const GUIDES = readdirSync(join(REPO_ROOT, "apps", "docs", "guides"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => join("apps", "docs", "guides", name));
/** Every page a reader follows: the guides and the READMEs. */
const PAGES = [
  ...GUIDES,
  "README.md",
  ...["packages", "apps"].flatMap((folder) =>
    readdirSync(join(REPO_ROOT, folder)).map((name) => join(folder, name, "README.md")),
  ),
  join("examples", "README.md"),
  join("spec", "README.md"),
].filter((path) => {
  try {
    read(path);
    return true;
  } catch {
    return false;
  }
});

describe("a title enquiry without a client certificate", () => {
  // The gateway refuses it in the registry's envelope with the registry's code (apps/gateway/src/policies.ts, and
  // apps/gateway/test/title-enquiries/title-lookups.test.ts against the spec's examples); 403-03 is only the name
  // its catalogue gives the case, never an answer.
  it.each(PAGES)("%s names BG40005, the code the gateway answers, never 403-03", (path) => {
    expect(read(path)).not.toContain("403-03");
  });
});
