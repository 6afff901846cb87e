// Reading a secret: from a prompt on a terminal (typed characters not echoed), else the first line of stdin only
// when the caller allows it. Never echoed, never logged.
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { UsageError } from "./conventions.js";

/** Asks for a secret on the terminal without echoing it; without a terminal, fails with `otherwise`. */
export async function readSecret(question: string, otherwise: string): Promise<string> {
  if (process.stdin.isTTY !== true) throw new UsageError(otherwise);
  process.stderr.write(question);
  // readline would echo each key to its output: give it one that swallows everything.
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: silent, terminal: true });
  try {
    const answer = await new Promise<string>((resolve) => rl.question("", resolve));
    return answer;
  } finally {
    rl.close();
    process.stderr.write("\n");
  }
}

/** All of stdin as text (for ids piped in, or a secret piped to `profile add --store-password`). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
