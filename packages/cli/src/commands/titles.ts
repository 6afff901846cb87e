// lrg search (official search of whole with priority) and lrg titles names|copies (title enquiries).
import { readFileSync } from "node:fs";
import { Option, type Command } from "commander";
import { DeferredResultTimeoutError, GatewayError, unwrap, type OfficialSearchInput } from "@lrg/client";
import { table, UsageError, type Output } from "../conventions.js";
import { runtimeOf, subcommand } from "../runtime.js";

const TITLE_NUMBER = /^[A-Z0-9]{1,9}$/;

function checkTitle(title: string): string {
  if (!TITLE_NUMBER.test(title))
    throw new UsageError(`not a title number (1 to 9 upper-case letters and digits): ${title}`);
  return title;
}

interface SearchFlags {
  readonly priority: "Purchase" | "Lease" | "Charge";
  readonly proprietors: string;
  readonly applicant: string;
  readonly reference: string;
  readonly property?: string;
  readonly from?: string;
  readonly messageId?: string;
  readonly request?: string;
  readonly result?: string;
  readonly timeout: string;
}

/** The request from the flags, or from a JSON file (`--request`) whose members the flags then fill only where absent. */
function searchRequest(title: string, flags: SearchFlags): OfficialSearchInput {
  let base: Partial<OfficialSearchInput> = {};
  if (flags.request !== undefined) {
    try {
      base = JSON.parse(readFileSync(flags.request, "utf8")) as Partial<OfficialSearchInput>;
    } catch (error) {
      throw new UsageError(
        `cannot read the request ${flags.request}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
  }
  return {
    ...base,
    title_number: title,
    external_reference: base.external_reference ?? { reference: flags.reference },
    official_search_of_whole_with_priority: base.official_search_of_whole_with_priority ?? {
      priority_type: flags.priority,
      registered_proprietors_details_or_applicants_for_first_registration: flags.proprietors,
      applicant_party: flags.applicant,
      ...(flags.property !== undefined && { property_description: flags.property }),
      ...(flags.from !== undefined && { search_from_date: flags.from }),
    },
    ...(flags.messageId !== undefined && { message_id: flags.messageId }),
  };
}

function printRows(out: Output, rows: [string, string][]): void {
  for (const line of table(rows.map(([k, v]) => [`${k}:`, v]))) out.line(line);
}

export function registerTitles(program: Command): void {
  subcommand(
    program,
    "search [title]",
    "Official search of whole with priority; a deferred result is polled for (with a spinner on a terminal) until --timeout, then fetched later with --result",
    [
      'lrg search ZZ100001 --proprietors "Alex Example and Sam Example" --applicant "Robin Sample" --reference CASE-42',
      "lrg search ZZ100001 --request search.json --json",
      "lrg search --result lrg-5b0f2a8e-3c1d-4e6f-9a7b-1c2d3e4f5a6b",
    ],
  )
    .addOption(
      new Option("--priority <type>", "the priority type").choices(["Purchase", "Lease", "Charge"]).default("Purchase"),
    )
    .option(
      "--proprietors <names>",
      "the registered proprietors (or applicants for first registration) as the register names them",
    )
    .option("--applicant <party>", "the party the search protects")
    .option("--reference <text>", "your external reference", "lrg")
    .option("--property <description>", "the property's description")
    .option("--from <date>", "search from this date (YYYY-MM-DD)")
    .option("--message-id <id>", "the request's message_id (generated when not given)")
    .option("--request <file.json>", "the request body from a file (the flags fill what it leaves out)")
    .option(
      "--result <message_id>",
      "fetch the result of an earlier search by its message_id (polling while it is deferred)",
    )
    .option("--timeout <seconds>", "how long to wait for a deferred result", "120")
    .action(async (titleArgument: string | undefined, flags: SearchFlags, command: Command) => {
      const runtime = runtimeOf(command);
      const { out } = runtime;
      const timeoutMs = Number(flags.timeout) * 1000;
      if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
        throw new UsageError(`--timeout must be a positive number of seconds (got ${flags.timeout})`);
      if (titleArgument === undefined && flags.result === undefined)
        throw new UsageError("search needs a title number (or --result MESSAGE_ID)");
      const title = titleArgument === undefined ? undefined : checkTitle(titleArgument);
      if (
        title !== undefined &&
        flags.request === undefined &&
        (flags.proprietors === undefined || flags.applicant === undefined)
      ) {
        throw new UsageError("search needs --proprietors and --applicant (or --request FILE)");
      }
      const client = await runtime.client();
      const what = title === undefined ? `official search ${flags.result}` : `official search of ${title}`;
      const spinner =
        process.stderr.isTTY === true && !out.json
          ? (await import("ora")).default({ text: what, stream: process.stderr }).start()
          : undefined;
      try {
        const outcome =
          title === undefined
            ? await client.pollOfficialSearch(flags.result as string, { timeoutMs })
            : await client.officialSearchOfWhole(searchRequest(title, flags), { timeoutMs });
        spinner?.succeed(`${what}${outcome.deferred === undefined ? "" : " (the result was deferred)"}`);
        if (out.json) return out.data(outcome);
        const data = outcome.result.data;
        printRows(out, [
          ...(title === undefined ? [] : [["Title", title] as [string, string]]),
          ["Message id", outcome.message_id],
          ["Registry reference", data.registry_reference],
          ["Search number", data.official_search_data.official_search_number],
          ["Searched from", data.official_search_data.search_from_date],
          ["Register changed", String(data.official_search_data.has_register_changed)],
          ["Proprietors", data.official_search_data.proprietor_names.join("; ")],
          ["Price (gross)", String(data.actual_price.gross_price_amount)],
          ...(data.warning_message === undefined ? [] : [["Warning", data.warning_message] as [string, string]]),
        ]);
      } catch (error) {
        spinner?.fail(what);
        if (error instanceof DeferredResultTimeoutError) {
          const { acknowledgement_code: code, expected_response_at: at } = error.deferred.data;
          throw new GatewayError(
            `the result is deferred (${code}), expected at ${at}: fetch it then with lrg search --result ${error.messageId}`,
          );
        }
        throw error;
      }
    });

  const titles = subcommand(
    program,
    "titles",
    "Title enquiries: registered proprietor names and official copy availability",
    ["lrg titles names ZZ100001"],
  );

  subcommand(titles, "names <title>", "The registered proprietors of a title", [
    "lrg titles names ZZ100001",
    "lrg titles names ZZ100001 --json",
  ]).action(async (title: string, _flags: unknown, command: Command) => {
    const runtime = runtimeOf(command);
    checkTitle(title);
    const client = await runtime.client();
    const answer = await unwrap(
      client.GET("/s2/v1/titles/{title_number}/registered-proprietor-names", {
        params: { path: { title_number: title } },
      }),
    );
    if (runtime.out.json) return runtime.out.data(answer);
    const data = answer.data;
    printRows(runtime.out, [
      ["Title", data.title_number],
      ["Status", `${data.title_status} (${data.title_status_code})`],
      ...(data.continued_under_title_number
        ? [["Continued under", data.continued_under_title_number] as [string, string]]
        : []),
    ]);
    for (const line of table([
      ["TYPE", "NAME"],
      ...data.proprietors.map((p) => [p.proprietor_type, p.proprietor_name]),
    ]))
      runtime.out.line(line);
  });

  subcommand(titles, "copies <title>", "Whether official copies (OC1 register and plan, OC2 documents) can be had", [
    "lrg titles copies ZZ100001",
  ]).action(async (title: string, _flags: unknown, command: Command) => {
    const runtime = runtimeOf(command);
    checkTitle(title);
    const client = await runtime.client();
    const answer = await unwrap(
      client.GET("/s1/v1/titles/{title_number}/official-copies/availability", {
        params: { path: { title_number: title } },
      }),
    );
    if (runtime.out.json) return runtime.out.data(answer);
    const data = answer.data;
    printRows(runtime.out, [
      ["Title", data.title_number],
      ["Status", data.title_status_code],
      ["Applications pending", String(data.applications_pending)],
    ]);
    const documents = [data.register, data.title_plan].map((d) => [d.type_code, d.type, "", d.availability_code]);
    const referred = data.referred_to_documents.map((d) => ["OC2", d.type, d.date ?? "", d.availability_code]);
    for (const line of table([["KIND", "DOCUMENT", "DATE", "AVAILABILITY"], ...documents, ...referred]))
      runtime.out.line(line);
  });
}
