#!/usr/bin/env bash
# Makes throw-away certificates for running the gateway with mutual TLS on a developer machine or in tests:
#   ca.crt / ca.key                  a certificate authority, the operator's (give it to the gateway as the client CA
#                                    and to clients as the trusted root)
#   server.crt / server.key          the gateway's certificate for 127.0.0.1 and localhost, signed by the CA
#   client.crt / client.key          a client certificate signed by the CA (accepted)
#   untrusted-ca.crt / .key          another certificate authority, which the gateway does not trust
#   untrusted-client.crt / .key      a client certificate signed by that other CA (refused)
# Keys are EC P-256, unencrypted; certificates last 2 days. Never use them for anything but local testing.
#
# Usage: tooling/scripts/make-certs.sh <directory>
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 <directory>" >&2
  exit 2
fi
command -v openssl >/dev/null || { echo "make-certs: openssl is not installed" >&2; exit 1; }

dir=$1
mkdir -p "$dir"
cd "$dir"
umask 077
days=2

key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

# ca <name> <common name>: a self-signed certificate authority.
ca() {
  key "$1.key"
  openssl req -x509 -new -key "$1.key" -sha256 -days "$days" -subj "/O=Land Registration Gateway sandbox/CN=$2" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -out "$1.crt"
}

# leaf <name> <issuer> <common name> <extensions>: a certificate signed by <issuer>.
leaf() {
  key "$1.key"
  openssl req -new -key "$1.key" -subj "/O=Land Registration Gateway sandbox/CN=$3" -out "$1.csr"
  printf '%s\n' "$4" >"$1.ext"
  openssl x509 -req -in "$1.csr" -CA "$2.crt" -CAkey "$2.key" -CAcreateserial -sha256 -days "$days" \
    -extfile "$1.ext" -out "$1.crt" 2>/dev/null
  rm -f "$1.csr" "$1.ext"
}

ca ca "LRG sandbox operator CA"
leaf server ca "127.0.0.1" "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,DNS:localhost"
leaf client ca "LRG sandbox client" "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=clientAuth"

ca untrusted-ca "Untrusted CA"
leaf untrusted-client untrusted-ca "LRG untrusted client" "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=clientAuth"

rm -f ./*.srl
chmod 644 ./*.crt
openssl verify -CAfile ca.crt server.crt client.crt >/dev/null
if openssl verify -CAfile ca.crt untrusted-client.crt >/dev/null 2>&1; then
  echo "make-certs: the untrusted client certificate verified against the CA" >&2
  exit 1
fi
echo "make-certs: certificates in $(pwd)"
