// What the guides and READMEs tell a reader, held to what the gateway does: rules that running the examples cannot
// show (an error code a page only names, a rule said in words), each said the one way the gateway behaves.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeBlocks, REPO_ROOT } from "./support/examples.js";
import { SANDBOX_TOKEN, startDocsGateway, type StartedGateway } from "./support/gateway.js";

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

/**
 * The one rule for a date-time a reader sends, said the same way wherever a page says it (in a sentence of its own
 * or after a colon, hence from "a date-time parameter").
 */
const DATE_TIME_RULE =
  "a date-time parameter in UTC without a zone, with seconds, as the requirement's example does " +
  "(`2020-01-01T00:00:00`, fractional seconds allowed); a date-time you received is UTC already, so send it back " +
  "with its trailing `Z` dropped (`2025-02-20T09:06:29.871Z` as `2025-02-20T09:06:29.871`).";
/** Where the rule is said: the guide pages on date-times and paging, and the client's README. */
const SAYING_THE_RULE = [
  join("apps", "docs", "guides", "getting-started.md"),
  join("apps", "docs", "guides", "consuming-notifications.md"),
  join("packages", "client", "README.md"),
];
/** A page's text as one line: Markdown wraps a sentence anywhere, and a list item indents its lines. */
const flat = (path: string): string => read(path).replace(/\s+/g, " ");

describe("a date-time sent to the gateway", () => {
  it.each(SAYING_THE_RULE)("%s says the one rule", (path) => {
    expect(flat(path).toLowerCase()).toContain(DATE_TIME_RULE.toLowerCase());
  });

  it.each(PAGES)("%s never says to send one back as it was received", (path) => {
    expect(flat(path)).not.toMatch(/send (it|one|them)( back)? exactly as (you )?received/i);
  });

  describe("follows what the gateway does with strict_date_times on", () => {
    let gateway: StartedGateway;
    beforeAll(async () => {
      gateway = await startDocsGateway();
    });
    afterAll(async () => {
      await gateway?.stop();
    });

    it("the rule's received value is refused, and the value it sends back is read", async () => {
      const [, received = "", sent = ""] = /\(`([^`]+Z)` as `([^`]+)`\)/.exec(DATE_TIME_RULE) ?? [];
      const control = async (method: string, path: string, token: string, body?: unknown) => {
        const response = await fetch(`${gateway.url}/sandbox/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        expect(response.status, `${method} ${path}`).toBeLessThan(300);
        return (await response.json()) as Record<string, string>;
      };
      // A business unit of its own, so that the setting changes nobody else's answers.
      const unit = await control("POST", "/business-units", SANDBOX_TOKEN, { name: "Date-time rule" });
      await control("PUT", "/settings", unit["sandbox_token"] ?? "", { strict_date_times: true });
      const login = Buffer.from(`${unit["username"]}:${unit["password"]}`).toString("base64");
      const list = async (createdAfter: string) => {
        const response = await fetch(
          `${gateway.url}/v1/notifications?created_after=${encodeURIComponent(createdAfter)}`,
          { headers: { authorization: `Basic ${login}` } },
        );
        return { status: response.status, code: ((await response.json()) as { code?: string }).code };
      };
      expect(await list(received)).toEqual({ status: 400, code: "400-02" });
      expect((await list(sent)).status).toBe(200);
    });
  });
});

/** What a block or its prose must say for a reader's new terminal to hold the admin token. */
const ASKS_FOR_THE_TOKEN = /LRG_SANDBOX_TOKEN`?,? (set to )?the token `npm start` printed/;
const SETS_THE_TOKEN = /^\s*export LRG_SANDBOX_TOKEN=/m;
const READS_THE_TOKEN = /\$\{?LRG_SANDBOX_TOKEN\b|process\.env\.LRG_SANDBOX_TOKEN/;

/**
 * The runnable blocks that read the admin token before the page asks the reader to set it, by line: the page asks in
 * a block that exports it, or in the prose just above a block (the docs tests set it for every page, as a reader who
 * did so would have: only the page's words can show the step is missing).
 */
function tokenReadBeforeAsked(markdown: string): number[] {
  const lines = markdown.split("\n");
  let asked = false;
  let proseFrom = 0;
  const early: number[] = [];
  for (const block of codeBlocks(markdown)) {
    const prose = lines
      .slice(proseFrom, block.line - 1)
      .join(" ")
      .replace(/\s+/g, " ");
    if (ASKS_FOR_THE_TOKEN.test(prose)) asked = true;
    proseFrom = block.line + block.code.split("\n").length + 1;
    if (block.notRun !== undefined || !["sh", "ts"].includes(block.lang)) continue;
    const setAt = block.code.search(SETS_THE_TOKEN);
    const readAt = block.code.search(READS_THE_TOKEN);
    if (readAt >= 0 && !asked && (setAt < 0 || setAt > readAt)) early.push(block.line);
    if (setAt >= 0) asked = true;
  }
  return early;
}

describe("the sandbox's admin token", () => {
  it("is found missing by the check where a page reads it before asking (and not where it asks first)", () => {
    const reading = '```sh\ncurl -H "Authorization: Bearer $LRG_SANDBOX_TOKEN" x\n```\n';
    expect(tokenReadBeforeAsked(`# T\n\n${reading}`)).toEqual([3]);
    expect(
      tokenReadBeforeAsked(`# T\n\nWith \`LRG_SANDBOX_TOKEN\` set to the token \`npm start\` printed:\n\n${reading}`),
    ).toEqual([]);
    expect(
      tokenReadBeforeAsked(
        `# T\n\n\`\`\`sh\nexport LRG_SANDBOX_TOKEN=<the token npm start printed>\n\`\`\`\n\n${reading}`,
      ),
    ).toEqual([]);
  });

  it.each(PAGES)("%s asks the reader to set LRG_SANDBOX_TOKEN before a block reads it", (path) => {
    expect(tokenReadBeforeAsked(read(path))).toEqual([]);
  });
});
