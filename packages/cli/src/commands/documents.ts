// lrg documents upload|download: the two-step upload with a progress bar on a terminal, and downloads by id.
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { Writable } from "node:stream";
import type { Command } from "commander";
import { DOWNLOAD_ID_PATTERN, type DocumentTypeCode, type GatewayClient, type UploadedDocument } from "@lrg/client";
import { UsageError, type Output } from "../conventions.js";
import { runtimeOf, subcommand } from "../runtime.js";

/** Refuses a path that is not a readable regular file, before any request. */
export function checkFile(path: string): number {
  let size: number;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw new UsageError(`not a file: ${path}`);
    size = stats.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`no such file: ${path}`);
  }
  return size;
}

/**
 * The file types the registry's checks accept, by their first bytes (PDF, TIFF, GIF, PNG; the gateway's
 * `document-valid` rule). A guess made before sending, so that a wrong file is caught before its upload.
 */
const ACCEPTED_TYPES: readonly (readonly [string, string])[] = [
  ["PDF", "%PDF-"],
  ["PNG", "\x89PNG\r\n\x1a\n"],
  ["GIF", "GIF87a"],
  ["GIF", "GIF89a"],
  ["TIFF", "II*\x00"],
  ["TIFF", "MM\x00*"],
];

/** The accepted type a file's first bytes announce, or undefined. */
export function documentTypeOf(path: string): string | undefined {
  const head = Buffer.alloc(8);
  const fd = openSync(path, "r");
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const text = head.toString("latin1");
  return ACCEPTED_TYPES.find(([, magic]) => text.startsWith(magic))?.[0];
}

/**
 * Refuses (usage, nothing sent) a file that is not a PDF, TIFF, GIF or PNG, which the registry's checks would fail
 * after the upload; with `force`, only warns on stderr and lets it go.
 */
export function checkDocumentType(out: Output, path: string, force: boolean): void {
  if (documentTypeOf(path) !== undefined) return;
  const what = `${path} does not look like a PDF, TIFF, GIF or PNG, the only documents the registry accepts`;
  if (!force) throw new UsageError(`${what}: add --force to upload it anyway`);
  out.note(
    out.json
      ? JSON.stringify({ warning: "not_a_document_type", path, detail: what })
      : `lrg: warning: ${what}; uploading it (--force)`,
  );
}

/**
 * Uploads a file, with a progress bar on stderr when stderr is a terminal and the output is not JSON (quiet in a
 * pipe). The bar shows the hashing pass, then the bytes sent.
 */
export async function uploadWithProgress(
  client: GatewayClient,
  out: Output,
  path: string,
  documentType: DocumentTypeCode,
  filter?: string,
): Promise<UploadedDocument> {
  const size = checkFile(path);
  const showBar = process.stderr.isTTY === true && !out.json;
  // The bar's library loads only when a terminal will show it.
  const bar = showBar
    ? new (await import("cli-progress")).SingleBar({
        format: `${path} {phase} [{bar}] {percentage}% {value}/{total} bytes`,
        stream: process.stderr,
        hideCursor: true,
        clearOnComplete: false,
        barsize: 30,
      })
    : undefined;
  bar?.start(size, 0, { phase: "hashing  " });
  let phase = "hashing";
  try {
    const uploaded = await client.uploadDocument(path, {
      documentType,
      ...(filter !== undefined && { additionalProviderFilter: filter }),
      onProgress: (progress) => {
        if (progress.phase !== phase) {
          phase = progress.phase;
          bar?.update(0, { phase: "uploading" });
        }
        bar?.update(progress.loaded);
      },
    });
    bar?.update(size, { phase: "uploaded " });
    return uploaded;
  } finally {
    bar?.stop();
  }
}

export function registerDocuments(program: Command): void {
  const documents = subcommand(program, "documents", "Send documents to the registry and fetch the ones it generates", [
    "lrg documents upload transfer.pdf --type TR1",
  ]);

  subcommand(
    documents,
    "upload <file>",
    "Upload a document (PDF, TIFF, GIF or PNG, at most 40 MiB); prints its document id. Another kind of file is refused before anything is sent (exit 2) unless --force",
    ["lrg documents upload transfer.pdf --type TR1", "DOC=$(lrg documents upload charge.pdf --type MRTG_DEED)"],
  )
    .requiredOption("--type <code>", "the document type code (TR1, AP1, MRTG_DEED...)")
    .option("--filter <label>", "a sub-unit label (additional_provider_filter)")
    .option("--force", "upload a file that does not look like a PDF, TIFF, GIF or PNG (else refused before sending)")
    .action(async (file: string, flags: { type: string; filter?: string; force?: boolean }, command: Command) => {
      const runtime = runtimeOf(command);
      checkFile(file);
      checkDocumentType(runtime.out, file, flags.force === true);
      const client = await runtime.client();
      const uploaded = await uploadWithProgress(
        client,
        runtime.out,
        file,
        flags.type as DocumentTypeCode,
        flags.filter,
      );
      if (runtime.out.json) runtime.out.data(uploaded);
      else runtime.out.line(uploaded.document_id);
    });

  subcommand(
    documents,
    "download <download_id>",
    "Download a document the registry generated (to a file, or to stdout in a pipe)",
    ["lrg documents download 9f2d4c6b8a0e1f3d5c7b9a1e3f5d7c9b1a3e5f7d9c1b3a5e7f9d1c3b5a7e9f1d -o requisition.pdf"],
  )
    .option("-o, --output <file>", "write to this file (default: stdout, when it is not a terminal)")
    .action(async (downloadId: string, flags: { output?: string }, command: Command) => {
      const runtime = runtimeOf(command);
      if (!DOWNLOAD_ID_PATTERN.test(downloadId))
        throw new UsageError(`not a download id (64 lower-case hexadecimal characters): ${downloadId}`);
      if (flags.output === undefined && process.stdout.isTTY === true)
        throw new UsageError("stdout is a terminal: name a file with -o FILE");
      const client = await runtime.client();
      if (flags.output !== undefined) {
        const saved = await client.downloadDocument(downloadId, { to: flags.output });
        if (runtime.out.json)
          runtime.out.data({ path: saved.path, bytes: saved.bytes, content_type: saved.contentType });
        else runtime.out.note(`saved ${saved.bytes} bytes to ${saved.path}`);
        return;
      }
      const { body } = await client.downloadDocument(downloadId);
      await body.pipeTo(Writable.toWeb(process.stdout));
    });
}
