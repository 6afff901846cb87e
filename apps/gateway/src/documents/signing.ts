import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Signatures of the addresses the gateway hands out (upload and download): HMAC-SHA256 over the fields that the
 * address authorises, with the gateway's secret. Verification compares in constant time.
 */
export class AddressSigner {
  readonly #secret: string;

  constructor(secret: string) {
    this.#secret = secret;
  }

  sign(purpose: "upload" | "download", ...fields: (string | number)[]): string {
    return createHmac("sha256", this.#secret)
      .update([purpose, ...fields].join("\n"))
      .digest("hex");
  }

  verify(signature: unknown, purpose: "upload" | "download", ...fields: (string | number)[]): boolean {
    if (typeof signature !== "string" || !/^[0-9a-f]{64}$/.test(signature)) return false;
    return timingSafeEqual(Buffer.from(signature, "hex"), Buffer.from(this.sign(purpose, ...fields), "hex"));
  }
}
