// Type test, run by `check` (tsc over test/): the handler maps are keyed by the generated `operations` of each
// document, so a missing, extra or misspelt handler, or a wrong member of a typed request, does not compile. Each
// `@ts-expect-error` fails the check if the error it expects disappears. What a handler answers is typed by its
// operation's responses (test/types/answer-shapes.test.ts).
import type { Problem } from "../../src/problems.js";
import type { Handler, RegistryHandlers, SandboxHandlers } from "../../src/routing.js";
import type { RegistryOperations } from "../../src/operation-types.js";

declare const registry: RegistryHandlers;
declare const sandbox: SandboxHandlers;

// The registry document: every operation needs its handler.
const { submitApplication, ...registryWithoutOne } = registry;
// @ts-expect-error submitApplication has no handler
export const missingRegistry: RegistryHandlers = registryWithoutOne;
// @ts-expect-error a misspelt operation id is not a key of the map
export const misspeltRegistry: RegistryHandlers = { ...registryWithoutOne, submitAplication: submitApplication };

// The sandbox document likewise.
const { resetSandbox, ...sandboxWithoutOne } = sandbox;
// @ts-expect-error resetSandbox has no handler
export const missingSandbox: SandboxHandlers = sandboxWithoutOne;
export const completeSandbox: SandboxHandlers = { ...sandboxWithoutOne, resetSandbox };

// Parameters and bodies arrive typed per operation.
export const typedRequest: Handler<RegistryOperations["attachMessage"]> = async ({ params, body }) => {
  const id: string = params.id;
  const text: string = body.data.message_text;
  // @ts-expect-error attachMessage has no path parameter title_number
  void params.title_number;
  // @ts-expect-error a message is text
  const length: number = body.data.message_text;
  void [id, text, length];
  return { status: 202 };
};

// Problem codes are the catalogue's union.
// @ts-expect-error 499-99 is not a code of the catalogue
export const unknownCode: Problem["code"] = "499-99";
