import { answered, firstHundred, fromObservations, isOperation, type ReadinessCheck } from "./check.js";
import { addressRefused, refusedAddressRequest, refusedForExpiry } from "./expired-upload.js";

/**
 * Checksum and length: an upload PUT carries `Content-Length` equal to the `file_length` and
 * `X-Provider-Checksum-Sha256` equal to the `file_sha256` given for its address (the base64 of the 32-byte SHA-256
 * digest, 44 characters); either missing or different is 403. The software's first upload PUT of the run must be
 * answered 200: a client that sends the hex digest, or counts characters instead of bytes, is refused. A PUT refused
 * because its address had expired says nothing of its headers (the expiry is checked first), so it is passed over:
 * with the expired-upload check in the same run, the PUT judged is the first to a valid address. Software that never
 * gets an address because the request for one is refused (a hex `file_sha256`) fails, as does software that sends its
 * credentials to the upload address: the signed address is the PUT's only credential.
 */
export const checksumAndLength: ReadinessCheck = {
  howToPass:
    "Compute the SHA-256 of the exact bytes you upload and send its base64 (44 characters, not the 64-character hex) " +
    "both as file_sha256 when asking for the address and as X-Provider-Checksum-Sha256 on the PUT; send the byte " +
    "count (not a string's length) as file_length and as Content-Length, and PUT exactly those bytes.",
  expected:
    "The first upload PUT of the run not refused for an expired address answered 200, and no PUT sent credentials.",
  instructions: ({ deadline }) =>
    `Send one document from your software before ${deadline} (the run's deadline, on the unit's sandbox clock): ` +
    "POST /v0/documents/url, then PUT the bytes to the upload_url.",
  judge: ({ observations, ended }) => {
    const puts = observations.filter((observation) => isOperation(observation, "uploadDocument"));
    const asks = observations.filter((observation) => isOperation(observation, "createUploadUrl"));
    const requests = firstHundred([...asks, ...puts].sort((a, b) => a.sequence - b.sequence));
    const leaked = puts.find((put) => put.credentialsSent);
    if (leaked)
      return {
        verdict: "failed",
        found:
          `The software sent its credentials (an Authorization header) to the upload address (observation ` +
          `${leaked.sequence}): the signed address is the PUT's only credential, and the registry's storage must never ` +
          "receive the registry password.",
        requests,
      };
    const first = puts.find((put) => !refusedForExpiry(put));
    if (!first) {
      const refused = refusedAddressRequest(observations);
      if (refused) return { verdict: ended ? "failed" : "running", found: addressRefused(refused), requests };
      const found =
        puts.length === 0
          ? "The software made no upload PUT during the run."
          : "Every upload PUT of the run was refused for an expired address.";
      return { verdict: ended ? "not_exercised" : "running", found, requests };
    }
    const which =
      first === puts[0] ? "The first upload PUT" : "The first upload PUT not refused for an expired address";
    if (first.status === 200)
      return { verdict: "passed", found: `${which} (observation ${first.sequence}) was answered 200.`, requests };
    const cause =
      first.status === 403 && !first.answerDetail
        ? ": the checksum, the length or the address did not match what was signed"
        : "";
    return {
      verdict: "failed",
      found: `${which} (observation ${first.sequence}) was answered ${answered(first)}${cause}.`,
      requests,
    };
  },
  offline: fromObservations(
    "the upload PUTs: the first not refused for an expired address answered 200, and none sent credentials; an " +
      "address request refused for what it sent (a hex file_sha256) fails; not exercised without an upload PUT",
  ),
};
