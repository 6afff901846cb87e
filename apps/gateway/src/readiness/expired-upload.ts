import type { DocumentStore } from "../storage/ports/documents.js";
import type { ReadinessObservationRow } from "./store/port.js";
import type { SettingStore } from "../storage/ports/settings.js";
import type { ProblemCode } from "../problems.js";
import { answered, firstHundred, isOperation, type FoundFacts, type GatheringCheck, type Recording } from "./check.js";
import { dataOf } from "./recording.js";
import type { RunningRun } from "./check.js";
import { RunSetting, type KeptByRun } from "./run-settings.js";
import { isNumber, isString, objectOf } from "./shapes.js";

/** The upload address a run issued expired: which document, the bytes it was for, and when, by the unit's clock. */
interface HeldAddress extends KeptByRun {
  documentId: string;
  fileLength: number;
  fileSha256: string;
  issuedMs: number;
}

/** What the expired-upload check is judged from besides the observations. */
export interface ExpiredAddress {
  documentId: string;
  issuedMs: number;
  /** The document the same bytes were then uploaded as (its PUT answered 200), if they were. */
  reuploadedAs: string | undefined;
}

/** The setting that holds the address a unit's run issued expired. */
const expiredAddressSetting = new RunSetting<HeldAddress>(
  "expired-upload",
  objectOf<HeldAddress>({
    runId: isString,
    documentId: isString,
    fileLength: isNumber,
    fileSha256: isString,
    issuedMs: isNumber,
  }),
);

/** Most later uploads looked up for the same bytes when a run is judged. */
const MOST_LOOKED_UP = 100;

const isAsk = (observation: ReadinessObservationRow): boolean => isOperation(observation, "createUploadUrl");
const isPut = (observation: ReadinessObservationRow): boolean => isOperation(observation, "uploadDocument");

/**
 * The software's first request for an upload address refused for what it sent (a 4xx: a hex `file_sha256`, a length
 * out of bounds), when no request of the run got one: the software met the upload checks wrongly.
 */
export function refusedAddressRequest(
  observations: readonly ReadinessObservationRow[],
): ReadinessObservationRow | undefined {
  const asks = observations.filter(isAsk);
  if (asks.some((ask) => ask.status < 300)) return undefined;
  return asks.find((ask) => ask.status >= 400 && ask.status < 500);
}

/** What evidence says of a refused address request. */
export const addressRefused = (ask: ReadinessObservationRow): string =>
  `The software's request for an upload address (observation ${ask.sequence}) was refused ${answered(ask)}; send ` +
  "file_sha256 as the base64 of the SHA-256 digest (44 characters, not the 64-character hex) and file_length as the " +
  "byte count.";

/** The code of the 403 the gateway answers a PUT to an upload address that expired. */
const ADDRESS_EXPIRED: ProblemCode = "403-02";

/**
 * Whether an upload PUT was refused because its address had expired: a 403 whose code says so, or, answered without a
 * code (another upload host's), after the `expires` of its address (the query keeps it; only the signature is
 * redacted). The gateway checks the expiry right after the signature, so such a PUT says nothing of its checksum or
 * length.
 */
export function refusedForExpiry(observation: ReadinessObservationRow): boolean {
  if (observation.status !== 403) return false;
  if (observation.answerCode !== null) return observation.answerCode === ADDRESS_EXPIRED;
  const expires = observation.query["expires"] ?? "";
  return /^\d{1,12}$/.test(expires) && Number(expires) * 1000 < observation.clockMs;
}

/** An upload address a recording shows issued: its document, the bytes it was for, and when. */
interface IssuedAddress {
  documentId: string;
  fileLength: unknown;
  fileSha256: unknown;
  issuedMs: number;
}

/**
 * The upload addresses a recording shows expired, each as the expired-upload check's facts: each address a PUT to was
 * refused for its expiry, with the document the same bytes were then uploaded as (the first PUT answered 200 after it,
 * to another address asked for the same file_length and file_sha256), if they were.
 */
function expiredInRecording(recording: Recording): FoundFacts<{ expiredAddress: ExpiredAddress | undefined }>[] {
  const issued = new Map<string, IssuedAddress>();
  for (const { observation, sent, answer } of recording.exchanges) {
    const documentId = dataOf(answer)?.["document_id"];
    if (!isAsk(observation) || observation.status !== 200 || !isString(documentId)) continue;
    const asked = dataOf(sent);
    const [fileLength, fileSha256] = [asked?.["file_length"], asked?.["file_sha256"]];
    issued.set(documentId, { documentId, fileLength, fileSha256, issuedMs: observation.clockMs });
  }
  const puts = recording.observations.filter(isPut);
  const expired = new Map<string, ExpiredAddress>();
  for (const put of puts.filter(refusedForExpiry)) {
    const documentId = put.pathParameters["document_id"] ?? "";
    if (expired.has(documentId)) continue;
    const address = issued.get(documentId);
    const issuedMs = address?.issuedMs ?? put.clockMs;
    const again = puts.find((later) => {
      const other = issued.get(later.pathParameters["document_id"] ?? "");
      return (
        later.status === 200 &&
        later.clockMs >= issuedMs &&
        other !== undefined &&
        other.documentId !== documentId &&
        address !== undefined &&
        other.fileLength === address.fileLength &&
        other.fileSha256 === address.fileSha256
      );
    });
    expired.set(documentId, { documentId, issuedMs, reuploadedAs: again?.pathParameters["document_id"] });
  }
  return [...expired.values()].map((expiredAddress) => ({ expiredAddress }));
}

/**
 * Takes the run's one expired address for a new upload address of its unit: the first address the run issues takes
 * it, atomically in the store (two requests on two instances never both do). Answers whether this address is to be
 * issued expired.
 */
export async function takeExpiredAddress(
  storage: SettingStore,
  run: Pick<RunningRun, "id">,
  businessUnitId: string,
  document: { id: string; fileLength: number; fileSha256: string },
  nowMs: number,
): Promise<boolean> {
  const held: HeldAddress = {
    runId: run.id,
    documentId: document.id,
    fileLength: document.fileLength,
    fileSha256: document.fileSha256,
    issuedMs: nowMs,
  };
  return expiredAddressSetting.takeOnce(storage, businessUnitId, held);
}

/**
 * The address the run issued expired, if it issued one, with the document its bytes were then uploaded as: the first
 * upload answered 200 after it, to another address, of the same length and checksum.
 */
export async function expiredAddressOf(
  storage: SettingStore & DocumentStore,
  run: { id: string; businessUnitId: string },
  observations: readonly ReadinessObservationRow[],
): Promise<ExpiredAddress | undefined> {
  const held = await expiredAddressSetting.keptBy(storage, run.businessUnitId, run.id);
  if (!held) return undefined;
  const later = observations
    .filter(
      (observation) =>
        isPut(observation) &&
        observation.status === 200 &&
        observation.clockMs >= held.issuedMs &&
        observation.pathParameters["document_id"] !== held.documentId,
    )
    .slice(0, MOST_LOOKED_UP);
  for (const put of later) {
    const document = await storage.findDocument(put.pathParameters["document_id"] ?? "", run.businessUnitId);
    if (document?.fileSha256 === held.fileSha256 && document.fileLength === held.fileLength)
      return { documentId: held.documentId, issuedMs: held.issuedMs, reuploadedAs: document.id };
  }
  return { documentId: held.documentId, issuedMs: held.issuedMs, reuploadedAs: undefined };
}

/**
 * Expired upload address: an upload address is valid for ten minutes from its generation to the start of the upload;
 * a PUT after that is refused (403, code 403-02), and only a new address takes the bytes. The run issues the unit's
 * first upload address of the run already expired (as if the software had waited too long before its PUT): the
 * software must ask for a new address, and the same bytes' upload to it must be answered 200.
 */
export const expiredUpload: GatheringCheck<{ expiredAddress: ExpiredAddress | undefined }> = {
  howToPass:
    "When an upload PUT is refused as expired (403, code 403-02), or the address's expiry has passed before you send, " +
    "ask for a new address (POST /v0/documents/url with the same file_length and file_sha256) and PUT the bytes " +
    "there. Retrying the same address cannot succeed: it stays expired.",
  expected: "After the run's expired upload address, the same bytes uploaded to a new address, the PUT answered 200.",
  instructions: ({ deadline }) =>
    `Send one document from your software before ${deadline} (the run's deadline, on the unit's sandbox clock): ` +
    "the first upload address the sandbox issues in the run has already expired, and your software must ask for " +
    "another.",
  steps: ({ storage }) => ({
    uploadAddressIssued: (run, businessUnitId, document, nowMs) =>
      takeExpiredAddress(storage, run, businessUnitId, document, nowMs),
  }),
  gather: async ({ storage, run, observations }) => ({
    expiredAddress: await expiredAddressOf(storage, run, observations),
  }),
  judge: ({ observations, expiredAddress, ended }) => {
    const requests = firstHundred(observations.filter((observation) => isAsk(observation) || isPut(observation)));
    if (!expiredAddress) {
      const refused = refusedAddressRequest(observations);
      if (refused) return { verdict: ended ? "failed" : "running", found: addressRefused(refused), requests };
      const found = "The software asked for no upload address during the run.";
      return { verdict: ended ? "not_exercised" : "running", found, requests };
    }
    const { documentId, reuploadedAs } = expiredAddress;
    const refused = observations.filter(
      (observation) => isPut(observation) && observation.pathParameters["document_id"] === documentId,
    ).length;
    const tried =
      refused === 0 ? "the software sent nothing to it" : `the software's PUT to it was refused ${refused} time(s)`;
    if (reuploadedAs !== undefined)
      return {
        verdict: "passed",
        found: `The upload address of document ${documentId} was issued expired; ${tried}, then uploaded the same bytes to a new address (document ${reuploadedAs}, 200).`,
        requests,
      };
    const found = `The upload address of document ${documentId} was issued expired; ${tried}, and no upload of the same bytes to a new address was answered 200.`;
    return { verdict: ended ? "failed" : "running", found, requests };
  },
  offline: {
    occasion:
      "each upload address a PUT to was refused for its expiry (403 403-02, or past its expires): the same bytes " +
      "(file_length, file_sha256) then uploaded to a new address, answered 200; an address request refused for what " +
      "it sent (a hex file_sha256) fails",
    none: "No upload PUT of the recording was refused for an expired address.",
    find: (recording) => {
      const found = expiredInRecording(recording);
      if (found.length > 0 || !refusedAddressRequest(recording.observations)) return found;
      return [{ expiredAddress: undefined }];
    },
  },
};
