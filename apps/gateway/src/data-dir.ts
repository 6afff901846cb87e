// What the gateway keeps in its data directory beside the store: the directory itself, made and tried at start, and
// the secrets it generated. A problem with either stops the start with a `StartFailure` saying what to do.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { StartFailure, type GatewayConfig } from "./config.js";

/** The file of the data directory that keeps the generated secrets (owner-readable only). */
export const SECRETS_FILE = "secrets.json";

/** The secrets that may be generated, by variable, and the member of the configuration each one fills. */
const SECRETS = { LRG_SANDBOX_TOKEN: "sandboxToken", LRG_SIGNING_SECRET: "signingSecret" } as const;
type SecretName = keyof typeof SECRETS;

/** What happened, in the operator's words, by the system's error code. */
const FILE_FAILURES: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
  ENOTDIR: "a part of its path is a file, not a directory",
  EEXIST: "it is a file, not a directory",
  EISDIR: "it is a directory, not a file",
  ENOENT: "a part of its path does not exist",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "the path is too long",
};

/** Why a file operation failed, in a few words (the system's code when it has no words here). */
function whyOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return String(error);
  return FILE_FAILURES[code] ?? code;
}

/**
 * Makes the directory of `variable` when missing and tries a write in it, so that a directory the gateway cannot use
 * stops the start before anything is opened there, with one line naming the variable.
 */
export function prepareDirectory(path: string, variable: string): void {
  try {
    mkdirSync(path, { recursive: true });
  } catch (error) {
    throw new StartFailure(
      `cannot create ${variable} ${path} (${whyOf(error)}); set ${variable} to a directory this process may create and write in`,
    );
  }
  const probe = join(path, `.lrg-write-check-${process.pid}`);
  try {
    writeFileSync(probe, "lrg");
    rmSync(probe);
  } catch (error) {
    rmSync(probe, { force: true });
    throw new StartFailure(
      `cannot write in ${variable} ${path} (${whyOf(error)}); set ${variable} to a directory this process may write in, or let it write there`,
    );
  }
}

/**
 * The secrets the gateway made up (`generated`), kept in the data directory so that they stay the same across
 * restarts on it: the admin token a newcomer copied into a profile, the secret that signed addresses handed out. A
 * secret written there by an earlier start is read back; a secret given in the environment is never written, and
 * the file is not read when every secret is given. It is written only when a secret is added to it (at the first
 * start, mostly), durably: a crash leaves the old file or the new one, never a part of one.
 */
export function keepGeneratedSecrets<Config extends GatewayConfig & { generated: string[] }>(
  config: Config,
): Config & { kept: string[] } {
  const names = config.generated.filter((name): name is SecretName => name in SECRETS);
  if (names.length === 0) return { ...config, kept: [] };
  const file = join(config.dataDir, SECRETS_FILE);
  const stored = readSecrets(file);
  const kept: string[] = [];
  const added: Record<string, string> = {};
  const next = { ...config };
  for (const name of names) {
    const earlier = stored[name];
    if (typeof earlier === "string") {
      next[SECRETS[name]] = earlier;
      kept.push(name);
    } else added[name] = config[SECRETS[name]];
  }
  if (Object.keys(added).length > 0) {
    try {
      writeFileDurably(file, `${JSON.stringify({ ...stored, ...added }, null, 2)}\n`, 0o600);
    } catch (error) {
      throw new StartFailure(
        `cannot write ${file} (${whyOf(error)}); let this process write in LRG_DATA_DIR, or set LRG_SANDBOX_TOKEN and LRG_SIGNING_SECRET`,
      );
    }
  }
  return { ...next, kept };
}

/** The secrets kept in `file` (none when it does not exist); a file that cannot be read or is damaged stops the start. */
function readSecrets(file: string): Record<string, unknown> {
  const damaged = (why: string) =>
    new StartFailure(
      `${file} is damaged (${why}); restore it from a backup, or delete it to generate new secrets (signed addresses handed out and the sandbox token then change)`,
    );
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return {};
    throw new StartFailure(
      `cannot read ${file} (${whyOf(error)}); let this process read it, or delete it to generate new secrets (signed addresses handed out and the sandbox token then change)`,
    );
  }
  if (text.trim() === "") throw damaged("it is empty");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw damaged(`it is not JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw damaged("it holds no object of secrets");
  const secrets = parsed as Record<string, unknown>;
  for (const name of Object.keys(SECRETS)) {
    const value = secrets[name];
    if (value !== undefined && (typeof value !== "string" || value === ""))
      throw damaged(`${name} is not a non-empty string`);
  }
  return secrets;
}

/**
 * Writes `file` so that a crash at any moment leaves either its old content or `text`, never a part: a temporary file
 * beside it, flushed to the disk, renamed over it, and the directory flushed so that the rename itself is kept.
 */
export function writeFileDurably(file: string, text: string, mode: number): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const handle = openSync(temporary, "w", mode);
    try {
      writeFileSync(handle, text);
      fsyncSync(handle);
    } finally {
      closeSync(handle);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  const directory = openSync(dirname(file), "r");
  try {
    fsyncSync(directory);
  } finally {
    closeSync(directory);
  }
}
