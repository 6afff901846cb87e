// An injected fetch that records every request and answers from a handler: the "observed client" of the tests.
import type { Fetch } from "../../src/index.js";

/** One request as the transport received it, body read as text. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  readonly body: string;
  readonly redirect: Request["redirect"];
}

export interface RecordingFetch {
  readonly fetch: Fetch;
  readonly requests: RecordedRequest[];
  /** The last request received. */
  last(): RecordedRequest;
}

export type Responder = (request: RecordedRequest, index: number) => Response | Promise<Response>;

export function recordingFetch(responder: Responder): RecordingFetch {
  const requests: RecordedRequest[] = [];
  const fetch: Fetch = async (request) => {
    const recorded: RecordedRequest = {
      method: request.method,
      url: new URL(request.url),
      headers: new Headers(request.headers),
      body: request.body === null ? "" : await request.text(),
      redirect: request.redirect,
    };
    requests.push(recorded);
    return responder(recorded, requests.length - 1);
  };
  return {
    fetch,
    requests,
    last: () => {
      const request = requests.at(-1);
      if (request === undefined) throw new Error("no request was made");
      return request;
    },
  };
}

/** A JSON answer. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** A problem+json answer in the spec's shape. */
export function problemResponse(
  status: number,
  code: string,
  detail: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(
    JSON.stringify({
      type: `https://land-registration-gateway.example/problems/${code}`,
      title: "Error",
      status,
      detail,
      instance: "/",
      code,
    }),
    { status, headers: { "content-type": "application/problem+json", ...headers } },
  );
}
