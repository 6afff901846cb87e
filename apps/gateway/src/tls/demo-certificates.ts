import { generateKeyPairSync, randomBytes, X509Certificate } from "node:crypto";
import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { isIP } from "node:net";
import { join, resolve } from "node:path";
import forge from "node-forge";

/** The PEM files of the demo mutual TLS set, in `<dataDir>/tls`. */
export interface DemoCertificates {
  dir: string;
  /** The throw-away certificate authority: the gateway's client CA, and the root a client trusts. */
  caCert: string;
  caKey: string;
  /** The gateway's HTTPS certificate (localhost, 127.0.0.1, ::1 and the configured host), signed by the CA. */
  serverCert: string;
  serverKey: string;
  /** A client certificate signed by the CA, accepted on the title enquiries. */
  clientCert: string;
  clientKey: string;
  /** True when this call made them (first start, or the old ones had expired or were incomplete). */
  created: boolean;
}

const VALIDITY_DAYS = 397;
/** Made anew when fewer days than this are left, so a running sandbox never sees its certificate expire. */
const RENEW_DAYS = 30;
const DAY_MS = 86_400_000;
const ORGANISATION = "Land Registration Gateway sandbox (throw-away, never trust outside a sandbox)";

const FILES = {
  caCert: "ca.crt",
  caKey: "ca.key",
  serverCert: "server.crt",
  serverKey: "server.key",
  clientCert: "client.crt",
  clientKey: "client.key",
} as const;

type Pems = Record<keyof typeof FILES, string>;

/**
 * The demo certificates of a data directory: made on first use, reused on later starts while they are complete,
 * cover `hosts` and have at least a month to run. Keys are RSA 2048 (made by Node's crypto), unencrypted, readable by the
 * owner only.
 */
export async function ensureDemoCertificates(dataDir: string, hosts: string[] = []): Promise<DemoCertificates> {
  const dir = resolve(dataDir, "tls");
  const paths = Object.fromEntries(Object.entries(FILES).map(([key, name]) => [key, join(dir, name)])) as Pems;
  const names = sanNames(hosts);
  if (await reusable(paths, names)) return { dir, ...paths, created: false };
  await mkdir(dir, { recursive: true });
  const pems = makeSet(names);
  for (const key of Object.keys(FILES) as (keyof typeof FILES)[]) {
    // Written beside and renamed, so that an interrupted start leaves either the old file or the new one.
    const partial = `${paths[key]}.${randomBytes(4).toString("hex")}.partial`;
    await writeFile(partial, pems[key], { mode: key.endsWith("Key") ? 0o600 : 0o644 });
    await chmod(partial, key.endsWith("Key") ? 0o600 : 0o644);
    await rename(partial, paths[key]);
  }
  return { dir, ...paths, created: true };
}

/** localhost and the loopback addresses, plus the configured host unless it is a wildcard. */
function sanNames(hosts: string[]): string[] {
  const wildcard = new Set(["0.0.0.0", "::", ""]);
  return [...new Set(["localhost", "127.0.0.1", "::1", ...hosts.filter((host) => !wildcard.has(host))])];
}

async function reusable(paths: Pems, names: string[]): Promise<boolean> {
  try {
    const [ca, server, client] = await Promise.all(
      [paths.caCert, paths.serverCert, paths.clientCert].map(async (path) => new X509Certificate(await readFile(path))),
    );
    await Promise.all([paths.caKey, paths.serverKey, paths.clientKey].map((path) => readFile(path)));
    const renewBy = Date.now() + RENEW_DAYS * DAY_MS;
    const fresh = [ca, server, client].every((cert) => cert !== undefined && Date.parse(cert.validTo) > renewBy);
    const signed =
      server !== undefined &&
      client !== undefined &&
      ca !== undefined &&
      server.verify(ca.publicKey) &&
      client.verify(ca.publicKey);
    const covers = names.every((name) => (isIP(name) ? server?.checkIP(name) : server?.checkHost(name)) !== undefined);
    return fresh && signed && covers;
  } catch {
    return false;
  }
}

/** A positive 128-bit serial number, in hex. */
const serial = () => `7${randomBytes(15).toString("hex")}`;

interface Party {
  keys: { privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey };
  keyPem: string;
}

function party(): Party {
  // Node's crypto makes the key (forge's own RSA key generation is pure JavaScript and slow); forge signs with it.
  const keyPem = generateKeyPairSync("rsa", { modulusLength: 2048 })
    .privateKey.export({ type: "pkcs8", format: "pem" })
    .toString();
  const privateKey = forge.pki.privateKeyFromPem(keyPem);
  return { keys: { privateKey, publicKey: forge.pki.setRsaPublicKey(privateKey.n, privateKey.e) }, keyPem };
}

function certificate(
  subject: Party,
  commonName: string,
  issuer: { party: Party; cert?: forge.pki.Certificate },
  extensions: object[],
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.serialNumber = serial();
  cert.publicKey = subject.keys.publicKey;
  cert.validity.notBefore = new Date(Date.now() - DAY_MS);
  cert.validity.notAfter = new Date(Date.now() + VALIDITY_DAYS * DAY_MS);
  const name = [
    { name: "commonName", value: commonName },
    { name: "organizationName", value: ORGANISATION },
  ];
  cert.setSubject(name);
  cert.setIssuer(issuer.cert?.subject.attributes ?? name);
  cert.setExtensions([
    ...extensions,
    { name: "subjectKeyIdentifier" },
    ...(issuer.cert
      ? [{ name: "authorityKeyIdentifier", keyIdentifier: issuer.cert.generateSubjectKeyIdentifier().getBytes() }]
      : []),
  ]);
  cert.sign(issuer.party.keys.privateKey, forge.md.sha256.create());
  return cert;
}

function makeSet(names: string[]): Pems {
  const [caParty, serverParty, clientParty] = [party(), party(), party()];
  const ca = certificate(caParty, "LRG sandbox demo CA", { party: caParty }, [
    { name: "basicConstraints", cA: true, pathLenConstraint: 0, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
  ]);
  const leaf = (usage: { serverAuth?: boolean; clientAuth?: boolean }) => [
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", ...usage },
  ];
  const server = certificate(serverParty, "localhost", { party: caParty, cert: ca }, [
    ...leaf({ serverAuth: true }),
    {
      name: "subjectAltName",
      altNames: names.map((name) => (isIP(name) ? { type: 7, ip: name } : { type: 2, value: name })),
    },
  ]);
  const client = certificate(
    clientParty,
    "LRG sandbox demo client",
    { party: caParty, cert: ca },
    leaf({ clientAuth: true }),
  );
  return {
    caCert: forge.pki.certificateToPem(ca),
    caKey: caParty.keyPem,
    serverCert: forge.pki.certificateToPem(server),
    serverKey: serverParty.keyPem,
    clientCert: forge.pki.certificateToPem(client),
    clientKey: clientParty.keyPem,
  };
}
