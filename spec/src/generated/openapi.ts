// Generated from spec/dist/openapi.json (sha256 cc0544233511b5e1a3090c314b4a77b4c7f62c436951f6c243b1c7825bddd949) by openapi-typescript. Do not edit.

export interface paths {
    "/api/v1/official-searches-of-whole": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Official search of whole with priority, with data
         * @description Makes an official search with priority against the whole of a registered title, or against a pending
         *     first registration application, and answers the search certificate with the data of the search. The
         *     priority protects the `priority_type` disposition until the end of `priority_period_expiry_date`.
         *
         *     **Answers.** `201` with the result when it can be given at once. `202` when the search is accepted but
         *     its result is deferred: `BG20001` when the registry must process it by hand, `BG20002` when it arrived
         *     outside the service hours (06:30 to 23:00 London time, every day). Fetch a deferred result with
         *     `GET /api/v1/poll-requests/{message_id}` (the `Location` header) from `expected_response_at` on. The
         *     same address also answers the result of a search answered with `201`, so a client that lost the
         *     response can fetch it again.
         *
         *     **Errors** are answered in the registry's envelope for this service (`RegistryErrors`:
         *     `{"errors":[{code, detail, status, trace_id, title}]}`, `application/json`), `code` holding the
         *     registry's code.
         *
         *     **Order of checks.** Credentials and client certificate (401 `BG40004`, 403); the request's schema (400,
         *     `OS1API002`); `message_id` not used before by this user (409, `BG40011`); the business rules of the
         *     register (422, the registry's rule code in `code`); then service hours and manual processing
         *     (202) or the result (201). Business rules are checked when the search is received, also out of hours,
         *     so a deferred search always ends in a result. Only searches answered 201 or 202 use up their
         *     `message_id`: after a 422 the same `message_id` may be sent again, for example with
         *     `continue_application_if` extended.
         *
         *     **Business rules** (422): `bg.title.invalid` the title number is not on the register;
         *     `bg.title.closed` the title is closed; `bg.title.caution` the title is a caution title;
         *     `bg.date.futuredate` `search_from_date` is after today's London date; `bg.state.nonamematch` the names
         *     given do not match the registered proprietors; `bg.fee.feeMismatch` the fee exceeds
         *     `expected_price.gross_price_amount`; `bg.title.pendingsearchofpart` an official search of part of the
         *     title has priority; `bg.title.developertitle` the title is a developer's estate title. The last four are
         *     waived by `NAME_MISMATCH_ON_REGISTER`, `ACTUAL_FEE_EXCEEDS_EXPECTED_FEE`, `PENDING_SEARCHES_OF_PART` and
         *     `DEVELOPER_TITLE` in `continue_application_if`; the search then goes ahead with a `warning_message`
         *     (and, for a name mismatch, an advisory entry). The title number is upper-cased before it is looked up.
         *
         *     **Priority.** `priority_period_expiry_date` is the thirtieth working day after the London date of
         *     `certificate_timestamp`, counting Monday to Friday and leaving out the bank holidays of England and
         *     Wales. A search deferred for manual processing has priority from its receipt; a search received out of
         *     hours from the moment the service hours resume. The fee is 3.00 GBP (no VAT) unless a title says
         *     otherwise.
         *
         *     **Certificate and pending searches.** The gateway answers the `LINK` form of `certificate`: a PDF
         *     certificate downloadable with `GET /v1/documents/{download_id}` (document code `ROA`). The
         *     `pending_official_searches_of_whole` of a result list the title's seeded pending searches and the
         *     caller's own business unit's earlier searches still in priority, never another unit's.
         *
         *     **Scenario titles of the simulated register** (the gateway's register; fictional numbers, `x-lrg-source:
         *     design`). Every other title number that matches the pattern and is not seeded is answered like
         *     ZZ100010. Out of hours, any search that passes the rules is answered `202` `BG20002`, with
         *     `expected_response_at` at the next 06:30 London time. While a readiness run with the check
         *     `deferred-official-search` runs on the caller's business unit, its first search that passes the rules is
         *     deferred as if processed by hand (`202` `BG20001`, the result 15 minutes later).
         *
         *     | Title | Register | Official search answers |
         *     |---|---|---|
         *     | ZZ100001 | Clean registered title, proprietors ALEX EXAMPLE and SAM EXAMPLE | 201, no changes, no advisory entries |
         *     | ZZ100002 | Registered to JORDAN EXAMPLE; the names given never match | 422 `bg.state.nonamematch`; with `NAME_MISMATCH_ON_REGISTER`, 201 with a `name_mismatch` advisory entry and a warning |
         *     | ZZ100003 | New edition dated 2025-03-20; a commonhold unit whose common parts are ZZ100013 | 201 with `has_register_changed: true` (for a `search_from_date` before the edition) and a `commonhold_title` advisory entry |
         *     | ZZ100004 | Fee 6.00 GBP | 422 `bg.fee.feeMismatch` when `expected_price` is absent or its gross amount is below 6.00; with `ACTUAL_FEE_EXCEEDS_EXPECTED_FEE`, 201 charging 6.00 with a warning |
         *     | ZZ100005 | An official search of part has priority | 422 `bg.title.pendingsearchofpart`; with `PENDING_SEARCHES_OF_PART`, 201 with a warning |
         *     | ZZ100006 | Closed, continued under ZZ100012 | 422 `bg.title.closed` |
         *     | ZZ100007 | Caution title | 422 `bg.title.caution` |
         *     | ZZ100008 | Developer's estate title of EXAMPLE HOMES LIMITED | 422 `bg.title.developertitle`; with `DEVELOPER_TITLE`, 201 with a warning |
         *     | ZZ100009 | Needs manual processing | 202 `BG20001`; the result is ready 15 minutes after receipt |
         *     | ZZ100010 | Not on the register | 422 `bg.title.invalid` |
         *     | ZZ100011 | Pending first registration by EXAMPLE ESTATES LIMITED | 201; `search_from_date` may be omitted |
         *
         *     Any title: `has_register_changed` is true when `search_from_date` is before the date of the title's
         *     current edition (ZZ100001: 2025-03-14); a `search_from_date` after today's London date is answered 422
         *     `bg.date.futuredate`; an `expected_price` whose gross amount is below the title's fee is answered 422
         *     `bg.fee.feeMismatch` unless `ACTUAL_FEE_EXCEEDS_EXPECTED_FEE` is given. The sandbox clock (`/sandbox/v1/clock`) drives service
         *     hours, the priority period and readiness of deferred results.
         */
        post: operations["officialSearchOfWhole"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/poll-requests/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The `message_id` the caller gave in its official search request.
                 * @example os-2025-04-01-0009
                 */
                message_id: components["parameters"]["MessageIdPath"];
            };
            cookie?: never;
        };
        /**
         * Poll Request Service (result of an official search by message_id)
         * @description Answers the result of an official search of whole by the `message_id` the caller gave it. The registry's
         *     own Poll Request Service is SOAP; this is the gateway's REST form of it, keyed by the same `message_id`.
         *     Its errors are in the official search's envelope (`RegistryErrors`), so a client reads one shape for
         *     the whole search (design).
         *
         *     - `200`: the result, the very body that the search answers with `201`. Also answered for a search that
         *       was answered `201` at once, so a lost response can be fetched again.
         *     - `202`: the search is still being processed (manual processing, or waiting for the service hours); the
         *       body is the search's deferred acknowledgement. Poll again after `Retry-After` seconds (the gateway
         *       gives the seconds left until `expected_response_at`, at least 1).
         *     - `404`: this user has no search with this `message_id`. Results belong to the user who made the search:
         *       another user, even of the same business unit, gets 404, as does a `message_id` whose search was
         *       refused (400 or 422).
         *
         *     Polling has no side effect and may be repeated; a ready result stays available for as long as the search
         *     is kept (at least the priority period).
         */
        get: operations["getPollRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/s1/v1/titles/{title_number}/official-copies/availability": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The title number in upper case (1 to 9 characters from A-Z and 0-9). Lower-case letters are refused with
                 *     400 (`400-02`) rather than converted, because the registry's own services refuse them too.
                 * @example ZZ100001
                 */
                title_number: components["parameters"]["TitleNumberPath"];
            };
            cookie?: never;
        };
        /**
         * Official copy availability (OC1 and OC2)
         * @description Whether official copies of a title can be had: the register and the title plan (OC1), and each document
         *     referred to in the register (OC2), with `IMMEDIATE`, `MANUAL` or `UNAVAILABLE`. No fee is charged and
         *     nothing is ordered.
         *
         *     The title number must be upper case: the registry's service refuses lower-case letters, so the gateway
         *     answers 400 rather than converting them. An unknown title is 404. The service is available around the clock.
         *     Errors are answered in the registry's envelope for this service (`RegistryErrorCodes`: `{"errors":[{error_code,
         *     error_message, http_status, timestamp, trace_id}]}`, `application/json`), `error_code` holding the registry's
         *     code.
         *
         *     **Rate limit** (`public-reference`): 75 requests a minute per customer, that is per business unit: its users
         *     share one limit. Each 200 carries the business unit's bucket in the registry's `X-RateLimit-*` headers. A
         *     limit of 75 a minute in these headers' terms is a bucket of 4500 tokens (`X-RateLimit-Burst-Capacity`),
         *     replenished at 75 tokens a second (`X-RateLimit-Replenish-Rate`), each request taking 60
         *     (`X-RateLimit-Requested-Tokens`): a burst of 75 requests, then one every 0.8 seconds. Requests left =
         *     `X-RateLimit-Remaining` ÷ `X-RateLimit-Requested-Tokens`, rounded down. Past the limit the answer is 429 (the
         *     registry's `BG40006`) with `Retry-After`. The window follows the gateway's clock (advance the sandbox clock
         *     to refill it; a sandbox reset empties every window). The registry's own service has been seen to answer 429
         *     with no body; clients should not rely on one. (The registry's newer "REST rate limiting" page gives 150 a
         *     minute and `RateLimit-*` headers; the gateway follows the service page.)
         *
         *     **Simulated register** (`x-lrg-source: design`), the titles of the official search's scenarios:
         *
         *     | Title | `title_status_code` | Availability |
         *     |---|---|---|
         *     | ZZ100001 | VALID | OC1 immediate; OC2 a transfer (immediate) and a conveyance filed under ZZ100003 (manual, plan only) |
         *     | ZZ100002, ZZ100003, ZZ100004, ZZ100007, ZZ100008, ZZ100012, ZZ100013 | VALID | OC1 immediate; ZZ100003 also refers to its commonhold declaration filed under ZZ100013 |
         *     | ZZ100005 | PENDING_APPLICATIONS | `applications_pending: true`; OC1 immediate and backdated |
         *     | ZZ100006 | CLOSED_AND_CONTINUED, continued under ZZ100012 | OC1 unavailable |
         *     | ZZ100009 | VALID | OC1 manual |
         *     | ZZ100011 | PENDING_FIRST | OC1 unavailable |
         *     | ZZ100010 and any other number | — | 404 |
         */
        get: operations["getOfficialCopiesAvailability"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/s2/v1/titles/{title_number}/registered-proprietor-names": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The title number in upper case (1 to 9 characters from A-Z and 0-9). Lower-case letters are refused with
                 *     400 (`400-02`) rather than converted, because the registry's own services refuse them too.
                 * @example ZZ100001
                 */
                title_number: components["parameters"]["TitleNumberPath"];
            };
            cookie?: never;
        };
        /**
         * Registered proprietor names
         * @description The registered proprietors of a title, each a private individual (name in parts) or an organisation
         *     (kind and place of incorporation), told apart by `proprietor_type`. For a pending first registration
         *     the applicants are given; for a closed title the list is empty and `continued_under_title_number` names
         *     the title that continues it, if any.
         *
         *     The title number must be upper case: the registry's service refuses lower-case letters, so the gateway
         *     answers 400 rather than converting them. An unknown title is 404.
         *     Errors are answered in the registry's envelope for this service (`RegistryErrorCodes`: `{"errors":[{error_code,
         *     error_message, http_status, timestamp, trace_id}]}`, `application/json`), `error_code` holding the registry's
         *     code.
         *
         *     **Service hours** (`public-reference`): 06:30 to 23:00 London time. Outside them the registry answers 423
         *     (`BG50003`); so does the gateway, by its clock, while the sandbox setting `service_hours` is `enforced` (the
         *     default), with `Retry-After` up to the next opening.
         *
         *     **Rate limit** (`public-reference`): 6 requests a minute per user (account). Past it the answer is 429 (the
         *     registry's `BG40006`) with `Retry-After`. The gateway's window is a token bucket: a burst of 6, then one
         *     request every 10 seconds, by the gateway's clock (advance the sandbox clock to refill it; a sandbox reset
         *     empties every window). The registry's service page gives no rate-limit headers for this service, so the
         *     gateway sends none on a 200. (The registry's newer "REST rate limiting" page names `RateLimit-Remaining` and
         *     `Retry-After` for this service; the gateway follows the service page.)
         *
         *     **Simulated register** (`x-lrg-source: design`), the titles of the official search's scenarios:
         *
         *     | Title | `title_status_code` | Proprietors |
         *     |---|---|---|
         *     | ZZ100001 | VALID | ALEX EXAMPLE, SAM EXAMPLE (private individuals) |
         *     | ZZ100002 | VALID | JORDAN EXAMPLE |
         *     | ZZ100003 | VALID | MORGAN SAMPLE |
         *     | ZZ100004, ZZ100005, ZZ100007, ZZ100009, ZZ100012 | VALID | one private individual each |
         *     | ZZ100006 | CLOSED_AND_CONTINUED, continued under ZZ100012 | none |
         *     | ZZ100008 | VALID | EXAMPLE HOMES LIMITED (CORPORATE_BODY, ENGLAND_OR_WALES) |
         *     | ZZ100011 | PENDING_NEW_TITLE | EXAMPLE ESTATES LIMITED (the applicant for first registration) |
         *     | ZZ100013 | VALID | SAMPLE COURT COMMONHOLD ASSOCIATION LIMITED (CORPORATE_BODY, ENGLAND_OR_WALES) |
         *     | ZZ100010 and any other number | — | 404 |
         */
        get: operations["getRegisteredProprietorNames"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/applications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit an application
         * @description Submits an application to change the register. The answer is 202 with the `application_request_id`; the
         *     registry then validates it asynchronously. Follow it with application information and notifications:
         *     VALIDATING, then VALIDATION_FAILED, SYSTEM_ERROR, ACCEPTED_AWAITING_PRIORITY (day list closed) or
         *     ACCEPTED_PRIORITY_PROTECTED, and later COMPLETED or CANCELLED.
         *
         *     Schema errors are answered at once (400, code 400-02, with `errors`), and so is a charge or transfer date
         *     after today (an `errors` item of type `date-not-in-future`), as the registry's stub answers one. The
         *     registry's business rules need stored data (uploaded documents, their checks, the registry's code lists) and
         *     run after the 202, as the registry runs them; a breach appears as VALIDATION_FAILED with `errors` in
         *     application information (each `type` a registry rule name: `all-mandatory-documents-provided`,
         *     `document-type-valid`, `document-valid`, `order-contains-one-transfer`, `submission-warning-understood`, `OC018`; or one of the sandbox's,
         *     see ApplicationError) and the `application.validation-failed` notification. Send the same `Idempotency-Key`
         *     again to retry safely.
         *
         *     **Retrying after SYSTEM_ERROR.** The requirement says the client retries the submission when an application
         *     ends in SYSTEM_ERROR. The key of an application that ended in SYSTEM_ERROR is released: submitting again
         *     with that key (same body, or a corrected one) creates a new application with a new
         *     `application_request_id`, rather than replaying the failed one. In any other status the same key replays
         *     the application (same body) or is refused with 409 (another body). A new key also works at any time.
         */
        post: operations["submitApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/applications/{id}/information": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Application information
         * @description The status, errors, warnings and correspondence of one application, by the `application_request_id` that
         *     the submission answered. For a valid request the answer is 200 whatever the status, including
         *     VALIDATION_FAILED and SYSTEM_ERROR. `registry_reference` and `priority_timestamp` are present once the
         *     application is on the day list. An id that is not a UUID is refused (400); an unknown id, or another
         *     business unit's, is 404.
         */
        get: operations["getApplicationInformation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/applications/{id}/attachments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attach a document
         * @description Attaches a document to a pending application after it was submitted (for example one a requisition asks
         *     for). Send the document first with Send a document (`POST /v0/documents/url`, then the `PUT`), by the same
         *     business unit, then name it here with how it is certified. The answer is `202` with no body; the outcome
         *     arrives later as a notification:
         *
         *     - `application.attachment-success` (`attachment_id`, `document_id`) once the document passed its checks;
         *     - `application.attachment-failed` (`failure_reason`, `document_id`) when it did not: the document is not one
         *       this business unit sent, its bytes never arrived, or its file checks failed (not a PDF, TIFF, GIF or PNG,
         *       a password-protected PDF, a virus).
         *
         *     **Pending** means still in the registry's hands: VALIDATING, ACCEPTED_AWAITING_PRIORITY or
         *     ACCEPTED_PRIORITY_PROTECTED. The registry refuses COMPLETED and CANCELLED applications (`OC036`); the gateway
         *     refuses VALIDATION_FAILED and SYSTEM_ERROR the same way (design: such an application never reaches the day
         *     list, so it must be submitted again, and its attachments with it).
         *
         *     **Errors** are answered in the registry's envelope for this operation (`AttachErrors`:
         *     `{"errors":[{type, detail, pointer}]}`, `application/json`): `OC200` (404) no application with this id for
         *     the caller's business unit; `OC036` (400) the application is not pending; a request that does not match the
         *     schema is 400 with one item per failing member.
         */
        post: operations["attachDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/applications/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attach a message
         * @description Attaches a message (free text, at most 4034 characters) to a pending application for the registry's
         *     caseworker. The answer is `202` with no body; the outcome arrives later as a notification:
         *
         *     - `application.message-success` (`attachment_id`, the registry's number for the message);
         *     - `application.message-failed` (`failure_reason`). The registry publishes no cause. The sandbox fails a
         *       message whose text is only white space (design), so that a client's handling of the failure can be
         *       tried.
         *
         *     **Pending**, the errors and their envelope are as for Attach a document: `OC200` (404) no application with
         *     this id for the caller's business unit; `OC036` (400) the application is COMPLETED, CANCELLED,
         *     VALIDATION_FAILED or SYSTEM_ERROR; a `message_text` over 4034 characters, or any other schema error, is 400
         *     in the same envelope.
         */
        post: operations["attachMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/documents/url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get an upload address for a document
         * @description The first of the two calls that send a document. Give the document's type, its exact size in bytes and the
         *     base64 of its SHA-256 digest (44 characters). The answer is a pre-signed `upload_url` and the `document_id`
         *     to name the document by in the submission. Then PUT the bytes to `upload_url` (see uploadDocument) within
         *     ten minutes. The answer is 200, as every published test stub and specification of the registry gives it
         *     (never 201).
         */
        post: operations["createUploadUrl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/uploads/{document_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Upload a document's bytes to its pre-signed address
         * @description The second call of Send a document: PUT the raw bytes to the `upload_url` exactly as it was given (this path
         *     and its query are the gateway's form of it). No credentials: the address is authorised by its signature and
         *     by the two headers, which must equal what was given when the address was generated.
         *
         *     - `Content-Length` must equal `file_length`, and `X-Provider-Checksum-Sha256` must equal `file_sha256`. If
         *       either is missing or differs, or the bytes' SHA-256 differs, the answer is 403 (signature verification
         *       failure, code 403-01). A chunked body without Content-Length is refused the same way.
         *     - The address is valid for ten minutes from its generation to the start of the upload (403, code 403-02
         *       after that). A slow upload that started in time is not cut off.
         *     - Any change to the address (its document id, `expires` or `signature`) fails the signature (403-01). An
         *       address without `expires` or without `signature` is malformed: 400 (code 400-02, the missing member
         *       named in `errors`), as for any missing required parameter.
         *     - One upload per address (409, code 409-04 on a second PUT). A refused attempt does not use the address up.
         *     - The headers are checked before the size: a `Content-Length` that differs from the signed `file_length` is
         *       403-01 whatever its size, so a body over 41943040 bytes (which no signed `file_length` allows) is 403 and
         *       is refused without reading it. A body that ends before Content-Length bytes is refused (400, code 400-05).
         *       Nothing is kept from a refused upload.
         *
         *     After a successful upload the file is checked asynchronously: a virus scan (a file carrying the EICAR
         *     anti-virus test signature fails it, as with real scanners), then the type sniffed from the bytes (PDF that is
         *     not password protected, TIFF, GIF or PNG; JPEG is refused, as the requirement lists these four). The outcome
         *     arrives as application.attachment-success or application.attachment-failed, and a submission naming a failed
         *     document fails validation (`document-valid`).
         */
        put: operations["uploadDocument"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{download_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a document
         * @description A document generated by the registry (requisition, cancellation or completion documents, Official Copies),
         *     by the 64-character lower-case hex `download_id` from a notification or from application information. The
         *     answer is 302 with a `Location` that serves the bytes for a short time without credentials; a client that
         *     follows redirects gets 200 and the bytes. Do not send the Authorization header to the `Location` address.
         *     A document is guaranteed to be available once the notification carrying its id has been issued. Official
         *     Copies are PDF only.
         */
        get: operations["downloadDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/document-downloads/{download_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch a document's bytes from its signed download address
         * @description Where the 302 of downloadDocument points. Authorised by its signature, not by credentials; valid for a few
         *     minutes. Answers the bytes with their content type (PDF for everything the registry generates). An address
         *     without `expires` or without `signature` is malformed (400, code 400-02, the missing member named in
         *     `errors`); an altered or expired one is 403 (403-04).
         */
        get: operations["fetchDocumentContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List notifications (version 0)
         * @description The first form of the notifications list: upper-case notification types, `subject_type`
         *     `LAND_REGISTER_APPLICATION`, and the event-time filters spelled `occured_after` and `occured_before` (one r),
         *     as the requirement names them. Oldest first, at most 100. Without `status`, NEW and ACKNOWLEDGED
         *     notifications are both returned: the requirement names no default for version 0 and the registry's test
         *     stub lists an acknowledged notification when no filter is given (version 1 keeps its default NEW). A query
         *     parameter that is not listed here is refused (400, code 400-04).
         */
        get: operations["listNotificationsV0"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v0/notifications/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Acknowledge notifications (version 0)
         * @description Marks up to 100 notifications of the caller's business unit as ACKNOWLEDGED; later list calls omit them by
         *     default. Acknowledging is idempotent: an id already acknowledged is listed in `acknowledged` again.
         *     Ids that are unknown, another business unit's, or not UUIDs at all are listed in `not_found`: an id never fails
         *     the call (the requirement states no validation rule for acknowledge). Only a body that is not a list of
         *     strings, or more than 100 ids, is refused (400, code 400-02), and then nothing is acknowledged.
         */
        post: operations["acknowledgeNotificationsV0"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List notifications (version 1)
         * @description Notifications about the applications of the caller's business unit, oldest first (by `created_datetime`),
         *     at most 100 and never more than `limit`. With no parameters: the 100 oldest with status NEW. To reach newer
         *     ones, pass the `created_datetime` of the last one received as `created_after` (or use `occurred_after`).
         *
         *     Delivery is at least once: one event may arrive as several notifications with the same `event_datetime` and
         *     `notification_type` and different `notification_id`s; acknowledge each. Every notification is deleted one
         *     month after it was created, acknowledged or not. Date-time filters are exclusive bounds. A query parameter
         *     that is not listed here is refused (400, code 400-04).
         */
        get: operations["listNotificationsV1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/notifications/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Acknowledge notifications (version 1)
         * @description Marks up to 100 notifications of the caller's business unit as ACKNOWLEDGED; later list calls omit them by
         *     default. Acknowledging is idempotent: an id already acknowledged is listed in `acknowledged` again.
         *     Ids that are unknown, another business unit's, or not UUIDs at all are left out of `acknowledged`: an id never fails
         *     the call (the requirement states no validation rule for acknowledge). Only a body that is not a list of
         *     strings, or more than 100 ids, is refused (400, code 400-02), and then nothing is acknowledged.
         */
        post: operations["acknowledgeNotificationsV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description The client's identifier of one title enquiry request: 5 to 50 characters, letters, digits and hyphens,
         *     starting with a letter or digit. It must be unique for the user who sends it; it is the key with which the
         *     Poll Request Service returns a result that could not be given at once.
         * @example os-2025-04-01-0001
         */
        MessageId: string;
        /**
         * @description A title number as accepted by the official search: up to three letters followed by a number without a
         *     leading zero (at most six digits), or up to three letters, at most four digits and a final `Z`. At most
         *     nine characters. Letters are accepted in either case; the gateway upper-cases the value before looking
         *     the title up, and answers with the upper-case form.
         * @example ZZ100001
         */
        TitleNumber: string;
        /** @description A reference given to the search by the client (`external_reference`) or by its customer (`customer_reference`). */
        OfficialSearchReference: {
            /**
             * @description The reference itself.
             * @example CONV-2025-0042
             */
            reference: string;
            /**
             * @description Who allocated the reference.
             * @example Example Conveyancing LLP
             */
            allocated_by?: string;
            /**
             * @description What the reference identifies.
             * @example Purchase of 1 Sample Row
             */
            description?: string;
        };
        /** @description A person the registry may contact about the search. */
        OfficialSearchContact: {
            /** @example A. Conveyancer */
            name: string;
            /** @example 0113 496 0000 */
            telephone_number: string;
        };
        /** @description What is searched, for whom, and which findings the client accepts without the search being refused. */
        OfficialSearchOfWholeWithPriority: {
            /**
             * @description The disposition the priority protects.
             * @example Purchase
             * @enum {string}
             */
            priority_type: "Purchase" | "Lease" | "Charge";
            /**
             * @description The property searched, in words.
             * @example 1 Sample Row, Exampleton
             */
            property_description?: string;
            /**
             * Format: date
             * @description The date from which changes to the register are reported: normally the date of the official copy the
             *     client holds. It is a calendar date no earlier than 1800-01-01 (an earlier or impossible date is
             *     refused with 400, code `OS1API002`) and not in the future by the gateway's London date (refused with
             *     422, code `bg.date.futuredate`). Required for a registered title; omitted only for a search
             *     against a pending first registration application. A search of a registered title without it is
             *     refused with 400, code `OS1API002`.
             * @example 2025-03-14
             */
            search_from_date?: string;
            /**
             * @description Findings that the client accepts: when the register shows one of these, the search goes ahead (with a
             *     warning or an advisory entry in the result) instead of being refused with 422.
             * @example [
             *       "NAME_MISMATCH_ON_REGISTER"
             *     ]
             */
            continue_application_if?: ("NAME_MISMATCH_ON_REGISTER" | "ACTUAL_FEE_EXCEEDS_EXPECTED_FEE" | "PENDING_SEARCHES_OF_PART" | "DEVELOPER_TITLE")[];
            /**
             * @description The registered proprietors (or the applicants for first registration) as the client knows them.
             * @example Alex Example and Sam Example
             */
            registered_proprietors_details_or_applicants_for_first_registration: string;
            /**
             * @description The party for whom the search is made (the purchaser, lessee or chargee).
             * @example Robin Sample
             */
            applicant_party: string;
        };
        /**
         * @description A fee in pounds sterling, as amounts with at most two decimal places. In a request (`expected_price`) it is
         *     the fee the client expects to pay; in a result (`actual_price`) the fee charged.
         */
        OfficialSearchPrice: {
            /**
             * @description Net amount plus VAT.
             * @example 3
             */
            gross_price_amount: number;
            /**
             * @description Amount before VAT.
             * @example 3
             */
            net_price_amount: number;
            /**
             * @description VAT charged on the fee.
             * @example 0
             */
            vat_amount: number;
            /**
             * @description ISO 4217 currency code; the registry charges in pounds sterling only.
             * @example GBP
             * @enum {string}
             */
            currency_id: "GBP";
        };
        /**
         * @description An official search of whole with priority, with data, against one registered title or one pending first
         *     registration application.
         */
        OfficialSearchRequest: {
            message_id: components["schemas"]["MessageId"];
            title_number: components["schemas"]["TitleNumber"];
            external_reference: components["schemas"]["OfficialSearchReference"];
            customer_reference?: components["schemas"]["OfficialSearchReference"];
            /** @description People the registry may contact about the search. */
            contact?: components["schemas"]["OfficialSearchContact"][];
            official_search_of_whole_with_priority: components["schemas"]["OfficialSearchOfWholeWithPriority"];
            expected_price?: components["schemas"]["OfficialSearchPrice"];
        };
        /**
         * Format: uuid
         * @description A UUID in its 36-character textual form.
         * @example 6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10
         */
        Uuid: string;
        /**
         * @description The registry's reference for an application on the day list, 7 characters from A-Z and 0-9.
         * @example A7K2Q9B
         */
        RegistryReference: string;
        /** @description The certificate is downloaded from `link`. */
        OfficialSearchCertificateLink: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "LINK";
            /**
             * Format: uri
             * @description Absolute address of the certificate PDF.
             * @example http://127.0.0.1:8080/v1/documents/9f2d4c6b8a0e1f3d5c7b9a1e3f5d7c9b1a3e5f7d9c1b3a5e7f9d1c3b5a7e9f1d
             */
            link: string;
        };
        /** @description The certificate PDF is in `attachment`, base64 encoded. */
        OfficialSearchCertificateAttachment: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "ATTACHMENT";
            /** @description The PDF bytes in standard padded base64 (at most about 10 MiB of PDF). */
            attachment: string;
        };
        /**
         * @description The official search certificate (a PDF), either as a link to download it or attached in the body. The
         *     gateway answers `LINK` to its download endpoint (`GET /v1/documents/{download_id}`, HTTP Basic); `ATTACHMENT`
         *     is the other form the registry uses.
         */
        OfficialSearchCertificate: components["schemas"]["OfficialSearchCertificateLink"] | components["schemas"]["OfficialSearchCertificateAttachment"];
        /**
         * @description A date-time as the registry emits it on notifications: ISO 8601 in UTC with optional fractional seconds and
         *     an optional trailing `Z`. The gateway emits milliseconds and `Z` (`2025-02-20T09:06:29.040Z`).
         *     A real calendar date and time only: month 01-12, a day that exists in its month (29 February in leap years
         *     only: a year divisible by 4, but not by 100 unless by 400), hour 00-23, minute and second 00-59 (no leap second).
         * @example 2025-02-20T09:06:29.040Z
         */
        RegistryDateTime: string;
        /**
         * @description A title number in upper case, 1 to 9 characters from A-Z and 0-9, as the official copy availability and
         *     registered proprietor names services take it in their path and as the register answers it. The
         *     registry's services refuse lower-case letters here, so the gateway does too (400) instead of converting
         *     them.
         * @example ZZ100001
         */
        TitleNumberUpperCase: string;
        /**
         * @description One advisory entry of a search result. `name_mismatch` is present when the names given did not match the
         *     register; `commonhold_title` when the title is part of a commonhold.
         */
        OfficialSearchAdvisoryEntry: {
            /** @description The advisory text, for a human. */
            entry_text: string;
            name_mismatch?: {
                /** @description The registered proprietor names that the names given were compared with. */
                registered_proprietor_names: string[];
            };
            commonhold_title?: {
                commonhold_title_number: components["schemas"]["TitleNumberUpperCase"];
            };
        };
        /** @description What the search found on the register, and the priority it gives. */
        OfficialSearchData: {
            /**
             * Format: date
             * @description The date from which changes were searched (as requested; for a first registration, the date the application was made).
             * @example 2025-03-14
             */
            search_from_date: string;
            /** @description True when the register was changed (a new edition) after `search_from_date`. */
            has_register_changed: boolean;
            /** @description True when `result_entries.advisory_entries` is not empty. */
            has_advisory_entries: boolean;
            /**
             * @description Names of the registered proprietors (or applicants for first registration) as the register holds them.
             * @example [
             *       "ALEX EXAMPLE",
             *       "SAM EXAMPLE"
             *     ]
             */
            proprietor_names: string[];
            /**
             * @description The registry's number of the official search, three, two and two characters separated by hyphens.
             * @example 124-A0-B8
             */
            official_search_number: string;
            /** @description When the search was made; priority runs from this moment. */
            certificate_timestamp: components["schemas"]["RegistryDateTime"];
            /**
             * Format: date
             * @description The last day of the priority period: the thirtieth working day after the day of `certificate_timestamp`
             *     (London date), counting Monday to Friday and leaving out the bank holidays of England and Wales.
             *     Priority ends at midnight (London time) at the end of this day.
             * @example 2025-05-16
             */
            priority_period_expiry_date: string;
            title_number: components["schemas"]["TitleNumberUpperCase"];
            /**
             * @description The party for whom the search was made, as given in `applicant_party`.
             * @example Robin Sample
             */
            applicants: string;
            /**
             * @description The key number of the customer account that the fee was charged to.
             * @example 1234567
             */
            key_number?: string;
            /** @description Official searches of whole of this title that still have priority, made before this one. */
            pending_official_searches_of_whole: {
                certificate_timestamp: components["schemas"]["RegistryDateTime"];
                /** @enum {string} */
                priority_type: "Purchase" | "Lease" | "Charge";
                applicant: string;
            }[];
            result_entries: {
                /** @description The state of the register at the time of the search. */
                register_status_entry: {
                    entry_text: string;
                    /** @description The edition date of the register the search is made against. */
                    official_copy_timestamp: components["schemas"]["RegistryDateTime"];
                };
                /** @description Findings the searcher should know about, such as a name mismatch or a commonhold title. */
                advisory_entries: components["schemas"]["OfficialSearchAdvisoryEntry"][];
            };
        };
        /** @description The search's identifiers, fee, certificate and data. */
        OfficialSearchResultData: {
            /** @description The gateway's identifier of this search. */
            id: components["schemas"]["Uuid"];
            /** @description The `message_id` of the request, the key of this result in the Poll Request Service. */
            message_id: components["schemas"]["MessageId"];
            /** @description The registry's reference for the search (7 characters from A-Z and 0-9). */
            registry_reference: components["schemas"]["RegistryReference"];
            external_reference: components["schemas"]["OfficialSearchReference"];
            actual_price: components["schemas"]["OfficialSearchPrice"];
            certificate: components["schemas"]["OfficialSearchCertificate"];
            /**
             * @description Present when the search went ahead despite a finding the client accepted in `continue_application_if`
             *     (fee above the expected fee, pending search of part, developer title, name mismatch).
             */
            warning_message?: string;
            /** @description The registry's acknowledgement of the search, for a human. */
            acknowledgement_message?: string;
            official_search_data: components["schemas"]["OfficialSearchData"];
        };
        /**
         * @description The result of an official search of whole with priority: the certificate and the data of the search. The
         *     official search answers it with 201 when the result is given at once; the Poll Request Service answers the
         *     same body with 200 once a deferred search has been processed.
         */
        OfficialSearchResult: {
            data: components["schemas"]["OfficialSearchResultData"];
        };
        /**
         * @description The search was accepted but its result cannot be given now. Fetch it with the Poll Request Service under
         *     `message_id` from `expected_response_at` on. The official search answers this with 202; the Poll Request
         *     Service answers the same body with 202 while the result is still pending.
         */
        OfficialSearchDeferred: {
            data: {
                /** @description The gateway's identifier of this search (the same `id` the result will carry). */
                id: components["schemas"]["Uuid"];
                /** @description The `message_id` of the request, the key to poll with. */
                message_id: components["schemas"]["MessageId"];
                /** @description Why the result is deferred, for a human. */
                acknowledgement_message: string;
                /**
                 * @description `BG20001`: the search needs manual processing by the registry. `BG20002`: the search was received
                 *     outside the service hours (06:30 to 23:00 London time) and is processed when they resume.
                 * @enum {string}
                 */
                acknowledgement_code: "BG20001" | "BG20002";
                /** @description When the result is expected to be ready; poll from then on. */
                expected_response_at: components["schemas"]["RegistryDateTime"];
            };
        };
        /**
         * @description The error envelope of the registry's official search of whole (and of the gateway's Poll Request Service,
         *     which follows it): `application/json` with one item per error. `code` is the registry's code (`BG40011`,
         *     `OS1API002`, a rule code such as `bg.title.closed`), or the gateway's problem code where the registry
         *     publishes none. The registry's published schema and its appendix bodies give `status` as a string, its
         *     OpenAPI examples as an integer: the gateway sends the string (the published schema stands over its
         *     examples), and both are valid here so that the registry's own answers pass.
         */
        RegistryErrors: {
            errors: {
                /** @description The registry's code, for example `BG40011` or `bg.title.closed`. */
                code: string;
                /** @description What went wrong, for a human. */
                detail: string;
                /** @description The HTTP status, as a string (an integer in some of the registry's examples). */
                status: string | number;
                /** @description Identifies the request in the registry's logs (the gateway gives its X-Request-Id). */
                trace_id?: string;
                /** @description The HTTP reason phrase. */
                title: string;
                /** @description Where the error is, when it is tied to one member of the request. */
                source?: {
                    /** @description JSON pointer to the member. */
                    pointer?: string;
                };
            }[];
        };
        /**
         * @description A count of rate-limit tokens (token bucket), as carried by the `X-RateLimit-*` response headers of the title enquiry services.
         * @example 9
         */
        TitleRateLimitCount: number;
        /**
         * @description `IMMEDIATE`: an official copy is issued at once. `MANUAL`: it is issued after manual processing by the
         *     registry. `UNAVAILABLE`: no official copy can be issued.
         * @example IMMEDIATE
         * @enum {string}
         */
        OfficialCopiesAvailabilityCode: "IMMEDIATE" | "MANUAL" | "UNAVAILABLE";
        /** @description Availability of the official copy of the register or of the title plan (OC1). */
        OfficialCopiesTitleDocument: {
            /**
             * @description Name of the document, for a human.
             * @example Register
             */
            type: string;
            /**
             * @description `REGISTER` for the register, `TITLEPLAN` for the title plan.
             * @enum {string}
             */
            type_code: "REGISTER" | "TITLEPLAN";
            /**
             * @description The availability, for a human.
             * @example Immediately available
             */
            availability: string;
            availability_code: components["schemas"]["OfficialCopiesAvailabilityCode"];
            /** @description True when the official copy would show the register as it stood before pending applications. */
            backdated: boolean;
        };
        /** @description A document referred to in the register (OC2) and whether an official copy of it can be had. */
        OfficialCopiesReferredDocument: {
            /**
             * @description Kind of document, for a human.
             * @example Transfer
             */
            type: string;
            /**
             * @description Code of the kind of document.
             * @example TRANSFER
             */
            type_code: string;
            /**
             * @description The register entries that refer to the document, such as `A2` or `C1`.
             * @example [
             *       "A2",
             *       "C1"
             *     ]
             */
            entry_numbers: string[];
            /**
             * Format: date
             * @description Date of the document, when the register gives one.
             * @example 1998-06-30
             */
            date?: string;
            /**
             * @description The title number the document is filed under, when it is not this title.
             * @example ZZ100003
             */
            filed_under?: string;
            /**
             * @description The availability, for a human.
             * @example Immediately available
             */
            availability: string;
            availability_code: components["schemas"]["OfficialCopiesAvailabilityCode"];
            /** @description True when only the plan of the document is available. */
            plan_only: boolean;
        };
        /**
         * @description Whether official copies of a title can be had: the register and the title plan (OC1) and the documents
         *     referred to in the register (OC2).
         */
        OfficialCopiesAvailability: {
            data: {
                title_number: components["schemas"]["TitleNumberUpperCase"];
                /**
                 * @description State of the title: `VALID` open; `CLOSED` closed; `CLOSED_AND_CONTINUED` closed and continued under
                 *     `continued_under_title_number`; `NOT_COMPUTERISED` not held in computer form; `PENDING_APPLICATIONS`
                 *     applications are pending; `PENDING_DEALING` a dealing is pending; `PENDING_FIRST` a first
                 *     registration is pending; `SCHEME` part of a registration scheme.
                 * @enum {string}
                 */
                title_status_code: "VALID" | "CLOSED" | "CLOSED_AND_CONTINUED" | "NOT_COMPUTERISED" | "PENDING_APPLICATIONS" | "PENDING_DEALING" | "PENDING_FIRST" | "SCHEME";
                /** @description True when applications are pending against the title; official copies then show the register before they are completed. */
                applications_pending: boolean;
                /** @description For `CLOSED_AND_CONTINUED`, the title the register now continues under; otherwise null or absent. */
                continued_under_title_number?: string | null;
                register: components["schemas"]["OfficialCopiesTitleDocument"];
                title_plan: components["schemas"]["OfficialCopiesTitleDocument"];
                /** @description The documents referred to in the register (OC2), each with its availability. */
                referred_to_documents: components["schemas"]["OfficialCopiesReferredDocument"][];
            };
        };
        /**
         * @description The error envelope of the registry's registered proprietor names and official copy availability (version 1)
         *     services: `application/json` with one item per error. `error_code` is the registry's code (`BG40001` malformed
         *     title number, `BG40002` no such title, `BG40004` credentials, `BG40006` rate limit, `BG50003` outside service
         *     hours for proprietor names), or the gateway's problem code where the registry publishes none. `http_status` is
         *     a string in the registry's examples (the gateway sends a string; an integer is accepted here). `timestamp` has no
         *     zone although the registry's schema calls it UTC; it is UTC. `trace_id` is in the official copy availability
         *     schema and optional in the proprietor names schema; the gateway always gives it.
         */
        RegistryErrorCodes: {
            errors: {
                /** @description The registry's code, for example `BG40002`. */
                error_code: string;
                /** @description What went wrong, for a human. */
                error_message: string;
                /** @description The HTTP status, as a string. */
                http_status: string | number;
                /**
                 * @description When the error happened (UTC, written without a zone): in the sandbox, by the clock of the caller's
                 *     business unit, or by the global clock when the request names no business unit it knows.
                 */
                timestamp: components["schemas"]["RegistryDateTime"];
                /** @description Identifies the request in the registry's logs (the gateway gives its X-Request-Id). */
                trace_id?: string;
            }[];
        };
        /** @description A registered proprietor who is a private individual. */
        ProprietorPrivateIndividual: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            proprietor_type: "PRIVATE_INDIVIDUAL";
            /**
             * @description Position of the proprietor in the register's list of proprietors.
             * @example 1
             */
            sequence?: number;
            /**
             * @description The whole name as the register gives it.
             * @example ALEX EXAMPLE
             */
            proprietor_name: string;
            /**
             * @description Title, such as Mr, Ms or Dr.
             * @example Ms
             */
            title?: string;
            /** @example ALEX */
            forenames?: string;
            /** @example EXAMPLE */
            surname?: string;
            /**
             * @description Honours or post-nominal letters.
             * @example OBE
             */
            decoration?: string;
        };
        /** @description A registered proprietor that is an organisation. */
        ProprietorOrganisation: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            proprietor_type: "ORGANISATION";
            /**
             * @description The organisation's name as the register gives it.
             * @example EXAMPLE HOMES LIMITED
             */
            proprietor_name: string;
            /**
             * @description Kind of organisation, an upper-case code such as `CORPORATE_BODY` or `LIMITED_LIABILITY_PARTNERSHIP`.
             * @example CORPORATE_BODY
             */
            organisation_type?: string;
            /**
             * @description Where the organisation is incorporated.
             * @example ENGLAND_OR_WALES
             * @enum {string}
             */
            company_location?: "ENGLAND_OR_WALES" | "SCOTLAND" | "NORTHERN_IRELAND" | "OVERSEAS";
        };
        /** @description A registered proprietor, a private individual or an organisation, told apart by `proprietor_type`. */
        Proprietor: components["schemas"]["ProprietorPrivateIndividual"] | components["schemas"]["ProprietorOrganisation"];
        /** @description The registered proprietors of a title. */
        ProprietorNames: {
            data: {
                title_number: components["schemas"]["TitleNumberUpperCase"];
                /**
                 * @description State of the title, for a human.
                 * @example Title is valid
                 */
                title_status: string;
                /**
                 * @description `VALID` open; `CLOSED_OR_CANCELLED` closed or cancelled; `CLOSED_AND_CONTINUED` closed and
                 *     continued under `continued_under_title_number`; `PENDING_NEW_TITLE` a first registration is pending
                 *     (the proprietors are then the applicants).
                 * @enum {string}
                 */
                title_status_code: "VALID" | "CLOSED_OR_CANCELLED" | "CLOSED_AND_CONTINUED" | "PENDING_NEW_TITLE";
                /** @description For `CLOSED_AND_CONTINUED`, the title the register now continues under; otherwise null or absent. */
                continued_under_title_number?: string | null;
                /** @description The registered proprietors in register order; empty for a closed title. */
                proprietors: components["schemas"]["Proprietor"][];
            };
        };
        /**
         * @description The kind of an application, as the submit-an-application guide version 1.0 (the newest) lists them. Each admits a published list of transaction types (spec/registry-data/application-types.json); the sandbox does not yet refuse a transaction type outside its application type's list. Generated from the registry's data.
         * @example REGISTER_UPDATE
         * @enum {string}
         */
        ApplicationTypeCode: "REGISTER_UPDATE" | "TRANSFER_OF_PART" | "DISPOSITIONARY_FIRST_LEASE" | "REMOVE_JP1";
        /**
         * @description A sub-unit label given when the application was submitted (printable ASCII).
         * @example branch-leeds
         */
        AdditionalProviderFilter: string;
        /**
         * @description A key the client chooses for an entry of a submission's maps.
         * @example title-1
         */
        ApplicationMapKey: string;
        /**
         * @description The kind of a transaction of an application: every code of the registry's transaction type table, 159 codes, as the submit-an-application guide version 1.0 (the newest) lists them. The registry's OpenAPI 1.0.4 enum lacks ten of them, added to the guide on 2026-03-02 (ADV1NT2, ADV1S12, CADV, DFL6, DM, DPR, NAOA, RADV, RORBAP, RTBAP); spec 0.3 lacks twelve more. Generated from the registry's data; `x-enumDescriptions` gives each code's name.
         * @example T
         * @enum {string}
         */
        TransactionTypeCode: "ADV1" | "ADV1NT2" | "ADV1S12" | "ADV2" | "AGN" | "AML" | "APLC" | "APLCO" | "APLM" | "APR" | "APT" | "ARC" | "ASSTTP" | "ASTC" | "ASTT" | "ATP" | "ATR" | "AUN" | "BKN" | "BKR" | "C" | "CADV" | "CAG" | "CANI" | "CANR" | "CANU" | "CBKN" | "CBKR" | "CCT" | "CH2" | "CH3" | "CHOA" | "CHOU" | "CHR" | "CN" | "CNC" | "CNL" | "COA" | "COAC" | "CON" | "COP" | "CPD" | "CPVK" | "CPVU" | "CTD" | "CUR" | "DB" | "DCLN" | "DCLV" | "DEB" | "DFL1" | "DFL3" | "DFL4" | "DFL5" | "DFL6" | "DFT" | "DIS" | "DJP" | "DL" | "DM" | "DMR" | "DOG" | "DP" | "DPR" | "DSP" | "DSS" | "DTL" | "EX1" | "EX3" | "EXR" | "HR" | "JP1" | "LCATCO" | "LCBD" | "LCBET" | "LCBN" | "LCF" | "LCMRE" | "LCOE" | "LCOF" | "LCSD" | "LCSDM" | "LCSDWT" | "LCSDMWT" | "LCSOL" | "LCSOLM" | "MDR" | "NAOA" | "NCT" | "NDC" | "NFR" | "NOE" | "NOL" | "NOPSC" | "NPR" | "NRT" | "PC" | "PER" | "PRO" | "RADV" | "RC" | "RE" | "RFN" | "RHR" | "ROCA" | "ROCC" | "ROCU" | "RORBAP" | "RNT" | "ROE" | "RRC" | "RRD" | "RTBAP" | "RTM" | "RUN" | "RXL" | "RXN" | "RXS" | "SBC" | "SHO" | "SJT" | "SOT" | "STVC" | "STVL" | "T" | "TNV" | "TNVTP" | "TOC" | "TOSNV" | "TOSNVTP" | "TOSTP" | "TOSV" | "TPS" | "TPSTP" | "TRC" | "TRM" | "TSCNV" | "TSCNVTP" | "TSCTP" | "TSCV" | "TTP" | "TVR" | "TVRTP" | "UNN" | "UPT" | "VC" | "VLAN" | "VLAP" | "VLUN" | "VO" | "VOC" | "VOCA" | "VOCU" | "VOE" | "VOEA" | "VOEU" | "VRC" | "WCT" | "WDR";
        /**
         * @description The kind of a document sent with an application or uploaded (Send a document): every code of the registry's document type list, 165 codes. The list follows the submit-an-application guide version 1.0 (the newest) plus the codes only the registry's OpenAPI 1.0.4 enum has (RXCD, DEBENTURE, TR5, which have no published description). Guide 0.3 and spec 0.3 accept fewer (CERT_RED_EX, DEBENTURE, EX3 and TR5 are missing from spec 0.3). Generated from the registry's data; `x-enumDescriptions` gives each code's name.
         * @example TR1
         * @enum {string}
         */
        DocumentTypeCode: "ABSTRACT" | "ACKAPU" | "ADJAR" | "ADJREVU" | "ADMIN_LTRS" | "ADV1" | "ADV2" | "AGREEMENT" | "AMS1" | "AN1" | "AP1" | "APPL_FRM" | "APPOINTMENT_OF_TRUSTEE" | "AS1" | "AS2" | "AS3" | "ASSENT" | "ASSIGNMENT" | "BIRTH_CERT" | "BOUND_PLAN" | "CC" | "CCD" | "CERT_CON_CH" | "CERT_DEATH" | "CERT_REG_CH" | "CERT_RED_EX" | "CERT_S89" | "CH1" | "CH2" | "CH3" | "CHARGE" | "CHARG_ORD" | "CIVIL_CERT" | "CM2" | "CM5" | "CM6" | "CN1" | "CNFRM_DTMN_LTA_LGHA" | "CNFRM_NO_DEED_SUR" | "CNFRM_NO_LTA_LGHA" | "CNSNT_ADMIN_COURT" | "COMP_DOC" | "CONSENT" | "CONST_COMP" | "CONTR_RES" | "CONV_CERT" | "CONV_CERT_DEATH" | "CONVEYANCE" | "COR_CERT" | "CORRES" | "COSR" | "COURT_ORD" | "CRALIQ" | "CRED_DEC" | "CRED_RES" | "CRT_FORM_7" | "CRWALIQ" | "DB" | "DEATH_CERT" | "DEC_AB_NULL_MARR" | "DEED" | "DEED_POLL" | "DEED_REG_DIS" | "DEED_SUR" | "DISCHARGE" | "DJP" | "DL" | "DOP" | "DRIVING_LICENCE" | "DS1" | "DS2" | "DS3" | "DS3_SHORT" | "EOB" | "EOL" | "EVD_NO_RENEW" | "EVIDENCE" | "EV_OV_NAME_CHANGE" | "EX1" | "EX1A" | "EX3" | "FORM_600" | "FORM_600CH" | "FORM_DI" | "FORM_JO" | "FR1" | "GENDER_CERT" | "GVD" | "HR1" | "HR2" | "HR4" | "ID1" | "ID2" | "ID3" | "ID4" | "ID5" | "ID_EV" | "ID_FRM" | "INDENTURE" | "JP1" | "K17_OR_K18" | "K20" | "K22" | "K3" | "K4" | "LEASE" | "LICENCE" | "LIQ01" | "LIQ_CERT_1" | "LIQ_CERT_2" | "LIQ_CERT_3" | "LNDLD_CNSNT" | "LONP" | "LR_CORRES" | "LTT" | "MARR_CERT" | "MEMO" | "MORD" | "MRTG_DEED" | "NOD" | "ORD_DISS_NULL_CP" | "PASSPORT" | "PLAN" | "POA" | "PROBATE" | "PSS1" | "REVERS_INT" | "RN" | "RX1" | "RX2" | "RX3" | "RX4" | "RXC" | "SC" | "SDLT" | "SEV" | "SHRF_RTN" | "SIDE_LTR" | "SOT" | "SSALIQ" | "STAT_DEC" | "SUB_CHARGE" | "TP1" | "TP2" | "TR1" | "TR2" | "TR4" | "TRANSFER" | "TRUSTEE_RESOLUTION" | "UN1" | "UN2" | "UN3" | "UN4" | "UT1" | "VAR_CHARGE" | "VAR_COV" | "VAR_EAS" | "VAR_LEASE" | "VESTING_ORDER" | "WCT" | "WINDING_UP" | "WIT_STATE" | "DEBENTURE" | "RXCD" | "TR5";
        /**
         * @description An application to change the register. Addresses, parties, titles, transactions and documents are maps keyed
         *     by names the client chooses (1–50 characters); members refer to each other by those keys. Every document
         *     named here must have been uploaded first (Send a document).
         *
         *     The codes (`type` of the application, of each transaction and of each document) are the registry's published
         *     lists, generated from its data (submit-an-application guide version 1.0). The registry's names are kept where
         *     it publishes them: transaction `type`, `priority` (1 to 20) and `details` (`date`, `mdref`,
         *     `discharge_submission_type`), `fee_in_pence`, and a party's `incorporation_territory` (each marked
         *     `x-lrg-source: public-reference`). The rest of the shape (the maps, the `*_keys` references, and which of the
         *     registry's fields are modelled) is the sandbox's design: the registry's full submission schema is not in the
         *     material the sandbox follows.
         *
         *     Schema errors, and a charge or transfer date after today, are answered at once (400). The registry's business
         *     rules run after the 202 and appear as VALIDATION_FAILED with `errors` in application information:
         *     `all-mandatory-documents-provided` (per transaction, from the registry's transaction/document mapping),
         *     `document-type-valid`, `document-valid`, `submission-warning-understood`, `incorporation-territory-valid`,
         *     `transaction-priorities-unique` and `order-contains-one-transfer` (see `ApplicationError`).
         */
        ApplicationSubmission: {
            type: components["schemas"]["ApplicationTypeCode"];
            /**
             * @description True when the lodger has read and accepts the fraud warning shown before submission. The registry fails an
             *     application without it after the 202 (`submission-warning-understood`), and so does the sandbox.
             * @default false
             */
            submission_warning_understood?: boolean;
            /** @description The client's own reference for the application. */
            customer_reference: string;
            additional_provider_filter?: components["schemas"]["AdditionalProviderFilter"];
            application_lodger: {
                /** Format: email */
                email: string;
                telephone?: string;
                /** @enum {string} */
                type: "CONVEYANCER" | "NON_CONVEYANCER";
            };
            /** @description Keys of `parties` who apply. */
            applicants?: components["schemas"]["ApplicationMapKey"][];
            addresses?: {
                [key: string]: {
                    lines: string[];
                    postcode?: string;
                    country?: string;
                };
            };
            parties?: {
                [key: string]: {
                    /**
                     * @description What kind of party this is. UK_COMPANY is the registry's name (its company-number rule names it);
                     *     OVERSEAS_COMPANY is ours for the registry's overseas company, which gives `incorporation_territory`.
                     * @enum {string}
                     */
                    party_type: "PRIVATE_INDIVIDUAL" | "ORGANISATION" | "UK_COMPANY" | "OVERSEAS_COMPANY";
                    /**
                     * @description Where an overseas company is incorporated: one of the registry's published territory names
                     *     (spec/registry-data/territories.json), checked after the 202 (`incorporation-territory-valid`).
                     * @example Jersey
                     */
                    incorporation_territory?: string;
                    name: string;
                    company_registration_number?: string;
                    address_keys?: components["schemas"]["ApplicationMapKey"][];
                };
            };
            titles: {
                [key: string]: {
                    title_number: string;
                    /** @default true */
                    whole_of_title?: boolean;
                };
            };
            transactions?: {
                [key: string]: {
                    type: components["schemas"]["TransactionTypeCode"];
                    /**
                     * @description The order in which the registry deals with the transactions, 1 to 20 (the registry's bounds). Each
                     *     transaction's priority must differ from the others' (checked after the 202: `transaction-priorities-unique`).
                     */
                    priority?: number;
                    /** @description The transaction's details, as far as the sandbox's rules read them (a subset of the registry's). */
                    details?: {
                        /**
                         * Format: date
                         * @description The date of the charge or transfer (for a transaction whose registry details type is Charge or
                         *     Transfer). A date after today (London, by the gateway's clock) is refused at once with 400, an
                         *     `errors` item of type `date-not-in-future`: the registry's stub refuses a future charge date
                         *     synchronously too (its code OCV_L1A_000).
                         * @example 2025-02-14
                         */
                        date?: string;
                        /** @description The lender's MD reference of a charge. When given, the registry requires the mortgage deed (MRTG_DEED) for a C transaction. */
                        mdref?: string;
                        /**
                         * @description How a discharge is sent. ATTACHED makes DS1 compulsory for a DIS transaction; the registry publishes no other value, so any other is taken as not attached.
                         * @example ATTACHED
                         */
                        discharge_submission_type?: string;
                    };
                    title_keys?: components["schemas"]["ApplicationMapKey"][];
                    party_keys?: components["schemas"]["ApplicationMapKey"][];
                    document_keys?: components["schemas"]["ApplicationMapKey"][];
                    fee_in_pence?: number;
                };
            };
            documents: {
                [key: string]: {
                    type: components["schemas"]["DocumentTypeCode"];
                    document_id: components["schemas"]["Uuid"];
                    document_metadata?: {
                        /** @enum {string} */
                        certification_statement_type?: "CERTIFIED" | "CERTIFIED_BY_ANOTHER";
                        document_filename?: string;
                    };
                };
            };
        };
        /** @description The id of the submitted application. Its progress is read with application information and arrives as notifications. */
        ApplicationSubmitted: {
            data: {
                application_request_id: components["schemas"]["Uuid"];
            };
        };
        /** @description One member of a request that failed validation. */
        ValidationError: {
            /** @description The kind of failure (the JSON Schema keyword that failed, e.g. `pattern`, `maxLength`, `required`; or `date-not-in-future` for a submitted charge or transfer date after today, a rule the registry checks with its schema). */
            type: string;
            /** @description What is wrong, for a human. */
            detail: string;
            /** @description JSON pointer to the failing member, prefixed by where it is (`/body/...`, `/query/...`, `/path/...`, `/headers/...`); null when not tied to one member. */
            pointer: string | null;
        };
        /**
         * @description An error, as `application/problem+json` (RFC 9457) with the registry's `code` member. Used for every error
         *     the gateway answers on the notifications, the submission, Send a document and its own operations (the title
         *     enquiry services and the attach operations answer the registry's envelopes instead, see
         *     `x-lrg-error-envelope`). `code` is stable; the catalogue is `x-lrg-problem-codes` at the document root.
         *     The registry's own stubs for submission and Send a document send `status` as a string ("400"), leave out
         *     `instance` and `code`, and list `errors[]` of `{type, detail, pointer}` (no `pointer` on Send a document);
         *     the gateway sends the integer and every member, and its `errors[]` items have the same three members.
         */
        Problem: {
            /**
             * Format: uri-reference
             * @description URI of the problem kind.
             * @example https://land-registration-gateway.example/problems/400-01
             */
            type: string;
            /**
             * @description Short summary of the problem kind, the HTTP reason phrase.
             * @example Bad Request
             */
            title: string;
            /**
             * @description The HTTP status code.
             * @example 400
             */
            status: number;
            /**
             * @description What went wrong with this request, for a human.
             * @example created_after cannot be after created_before
             */
            detail: string;
            /**
             * @description The request path.
             * @example /v1/notifications
             */
            instance: string;
            /**
             * @description Stable problem code, `<status>-<nn>`. See `x-lrg-problem-codes`.
             * @example 400-01
             */
            code: string;
            /** @description The registry's own code for this error, where it has one (for example `bg.title.closed` with 422-01, `BG50003` with 423-01, `BG40006` with 429-01). The registry's envelopes carry it in place of `code`. */
            rule?: string;
            /** @description For code 400-02, each member that failed validation. */
            errors?: components["schemas"]["ValidationError"][];
        };
        /**
         * @description VALIDATING: still being processed, not yet on the day list. VALIDATION_FAILED: not added to the day list
         *     because of validation errors (see `errors`). ACCEPTED_AWAITING_PRIORITY: passed validation, queued because the
         *     day list is closed. ACCEPTED_PRIORITY_PROTECTED: on the day list with priority. SYSTEM_ERROR: not added because
         *     of a system error; retry or contact support. COMPLETED and CANCELLED: the outcome of a protected application.
         * @enum {string}
         */
        ApplicationStatus: "VALIDATING" | "VALIDATION_FAILED" | "ACCEPTED_AWAITING_PRIORITY" | "ACCEPTED_PRIORITY_PROTECTED" | "SYSTEM_ERROR" | "COMPLETED" | "CANCELLED";
        /**
         * @description A date-time in UTC with exactly three fractional digits and a trailing `Z`.
         *     A real calendar date and time only: month 01-12, a day that exists in its month (29 February in leap years
         *     only: a year divisible by 4, but not by 100 unless by 400), hour 00-23, minute and second 00-59 (no leap second).
         * @example 2025-02-20T09:06:29.040Z
         */
        MillisecondDateTime: string;
        /**
         * @description Code of a document the registry generates, as it appears in notifications and application information:
         *     ATP Attached Plan; CAN Cancellation Letter; CMT Completion of Transaction Notification; CRD Combined
         *     Registration Document; DSR Data Synchronisation Enquiries Result; ECM Early Completion Letter; ECR Early
         *     Completion Official Copy of the Register; EC6 Early Completion 6 Month Reminder; LRP Land Registry Notice
         *     Plan/Illustrative Plan; LTR Letter; OCD Official Copy of a Document; OCP Official Copy of the Title Plan;
         *     OCR Official Copy of the Register; PCD Postal Cancellation Document; RCS Registration Completion Sheet;
         *     REG Copy of Updated Register; ROA Result of Application; TID Title Information Document.
         * @example LTR
         * @enum {string}
         */
        CorrespondenceDocumentTypeCode: "ATP" | "CAN" | "CMT" | "CRD" | "DSR" | "ECM" | "ECR" | "EC6" | "LRP" | "LTR" | "OCD" | "OCP" | "OCR" | "PCD" | "RCS" | "REG" | "ROA" | "TID";
        /**
         * @description The identifier of a document generated by the registry, the lower-case hex SHA-256 of its bytes.
         * @example 3b4c1f0e9d2a7c6b5e8f1a2d3c4b5a6f7e8d9c0b1a2f3e4d5c6b7a8f9e0d1c2b
         */
        DownloadId: string;
        /** @description A document generated by the registry, downloadable by its `download_id`. */
        CorrespondenceDocument: {
            type: {
                code: components["schemas"]["CorrespondenceDocumentTypeCode"];
                /**
                 * @description Human-readable name of the document type, upper case.
                 * @example LETTER
                 */
                name: string;
            };
            created_at: components["schemas"]["RegistryDateTime"];
            download_id: components["schemas"]["DownloadId"];
        };
        /** @description Documents generated by the registry for one event. */
        CorrespondenceDocuments: components["schemas"]["CorrespondenceDocument"][];
        /** @description One piece of correspondence on an application and its documents. A download id may appear here before the notification that carries it is issued; it is guaranteed downloadable once that notification is issued. */
        CorrespondenceRecord: {
            record_id: string;
            documents: components["schemas"]["CorrespondenceDocuments"];
        };
        /**
         * @description One validation error of an application (the requirement's error item: type, detail, pointer). The requirement
         *     describes `type` as "an error code of the form of two letters and digits"; the registry's published
         *     asynchronous rules are named instead (`all-mandatory-documents-provided`, `document-valid`, ...; one, `CHARGE-FEE`,
         *     in capitals) and its document retrieval failure is `OC018`, so `type` admits both forms.
         */
        ApplicationError: {
            /**
             * @description The rule that failed. The registry's rule names where it publishes one (spec/registry-data/validation-errors.json):
             *     `all-mandatory-documents-provided` (a transaction lacks a document its type requires), `document-type-valid`
             *     (the document's type here differs from the type declared at upload), `document-valid` (the file failed its
             *     checks or the virus scan), `order-contains-one-transfer`, `submission-warning-understood` (the fraud warning was not accepted), `OC018` (a document could not be fetched: never
             *     uploaded, or unknown). The sandbox's own names, where the registry publishes none:
             *     `incorporation-territory-valid` (an overseas company's territory is not one of the registry's),
             *     `transaction-priorities-unique`, and `references-resolve` (a key names no member of the submission).
             * @example all-mandatory-documents-provided
             */
            type: string;
            /** @description What is wrong, for a human. */
            detail: string;
            /** @description JSON pointer into the submission; null when the error is not tied to a field. */
            pointer: string | null;
        };
        /**
         * @description The status, errors, warnings and correspondence of one application. It does not carry the status of
         *     attachments or messages (those arrive as notifications) nor `was_subject_to_early_completion`.
         */
        ApplicationInformation: {
            data: {
                status: components["schemas"]["ApplicationStatus"];
                application_request_id: components["schemas"]["Uuid"];
                registry_reference?: components["schemas"]["RegistryReference"];
                priority_timestamp?: components["schemas"]["MillisecondDateTime"];
                correspondence: components["schemas"]["CorrespondenceRecord"][];
                errors: components["schemas"]["ApplicationError"][];
                warnings: string[];
            };
        };
        /** @description Attach a document that was sent with Send a document (by the same business unit) to a pending application. */
        AttachDocumentRequest: {
            data: {
                document_id: components["schemas"]["Uuid"];
                /**
                 * @description Whether the document is certified as a true copy, and by whom.
                 * @enum {string}
                 */
                certification_statement_type: "CERTIFIED" | "CERTIFIED_BY_ANOTHER" | "NOT_CERTIFIED";
            };
        };
        /**
         * @description The error envelope of Attach a document and Attach a message: `application/json`, an `errors` array and nothing
         *     else (no top-level type or title). `type` is the registry's code: `OC200` no such application for the caller's
         *     business unit (404), `OC036` the application is not pending (400); the gateway's problem code where the registry
         *     publishes none (`400-02` for a request that does not match its schema, one item per failing member with its JSON
         *     pointer into the body; `401-01`; `429-01`).
         */
        AttachErrors: {
            errors: {
                /** @description The registry's code, for example `OC036`. */
                type: string;
                /** @description What went wrong, for a human. */
                detail: string;
                /** @description JSON pointer to the failing member of the body; null when the error is not tied to one. */
                pointer: string | null;
            }[];
        };
        /** @description Attach a message (free text for the registry's caseworker) to a pending application. */
        AttachMessageRequest: {
            data: {
                /** @description The message, at most 4034 characters. */
                message_text: string;
            };
        };
        /**
         * @description Base64 (standard alphabet, padded) of the 256-bit binary SHA-256 digest of the file bytes: exactly 44
         *     characters. The pattern admits only strings that decode to exactly 32 bytes (the 43rd character carries
         *     two zero bits, the 44th is the padding).
         * @example 47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=
         */
        FileSha256: string;
        /** @description What the registry needs to sign an upload address for one document. */
        UploadUrlRequest: {
            data: {
                document_type: components["schemas"]["DocumentTypeCode"];
                /** @description Size of the file in bytes; at most 41943040 (40 MiB). Send exactly this as Content-Length. */
                file_length: number;
                file_sha256: components["schemas"]["FileSha256"];
                /** @description A sub-unit label for the document. */
                additional_provider_filter?: string;
            };
        };
        /** @description Where to PUT the bytes, and the id to name the document by in the submission. */
        UploadUrlResponse: {
            data: {
                /**
                 * Format: uri
                 * @description The pre-signed address to PUT the bytes to, within ten minutes, once. Use it exactly as given.
                 */
                upload_url: string;
                document_id: components["schemas"]["Uuid"];
            };
        };
        /**
         * @description A date-time filter. The requirement shows only a value without a zone; the gateway accepts that (read as
         *     UTC) and also a trailing `Z` (or `z`) or an offset (`±hh:mm` or `±hhmm`, hour 00-23, minute 00-59), `T` or `t`
         *     between date and time, seconds optional, and fractional seconds (one to nine digits after `.` or `,`)
         *     optional. A real calendar date and time only: month 01-12, a day that exists in its month (29 February in
         *     leap years only: a year divisible by 4, but not by 100 unless by 400), hour 00-23, minute and second 00-59
         *     (no leap second). The pattern admits exactly what the gateway reads: nothing it admits is refused for its
         *     shape. The registry publishes no zone rule, so the shape that is safe against it is the example's: zone-less
         *     UTC with seconds (`2020-01-01T00:00:00`, fractional seconds allowed). The typed client sends that shape, and
         *     the sandbox setting `strict_date_times` refuses every other one.
         * @example 2025-02-20T09:06:29
         */
        QueryDateTime: string;
        /**
         * @description NEW until acknowledged, then ACKNOWLEDGED. Either way the notification is deleted one month after it was created.
         * @example NEW
         * @enum {string}
         */
        NotificationStatus: "NEW" | "ACKNOWLEDGED";
        /**
         * Format: uri
         * @description Address of the JSON Schema of the payload. The gateway serves each payload schema at this address.
         * @example http://127.0.0.1:8080/schemas/v1/application/accepted-priority-protected.json
         */
        PayloadSchemaUri: string;
        /**
         * @description The version 0 notification types (upper case). APPLICATION_CORRESPONDENCE_DESPATCHED is our name for the
         *     version 0 view of correspondence, whose payload schema the requirement gives without naming its type.
         * @enum {string}
         */
        NotificationTypeV0: "APPLICATION_ACCEPTED_ON_DAY_LIST" | "APPLICATION_ACCEPTED_QUEUED_FOR_DAY_LIST" | "APPLICATION_VALIDATION_FAILED" | "SYSTEM_ERROR" | "APPLICATION_CANCELLED" | "APPLICATION_COMPLETED" | "APPLICATION_CORRESPONDENCE_DESPATCHED";
        /** @description The members every version 0 notification has; `notification_type` selects the shape of `payload.data`. */
        NotificationV0Base: {
            notification_id: components["schemas"]["Uuid"];
            created_datetime: components["schemas"]["RegistryDateTime"];
            event_datetime: components["schemas"]["RegistryDateTime"];
            payload_schema: components["schemas"]["PayloadSchemaUri"];
            notification_type: components["schemas"]["NotificationTypeV0"];
            /**
             * @description The kind of subject in version 0.
             * @enum {string}
             */
            subject_type: "LAND_REGISTER_APPLICATION";
            subject: components["schemas"]["Uuid"];
            /** @description The sub-unit label given at submission; null when none was given. */
            additional_provider_filter: components["schemas"]["AdditionalProviderFilter"] | null;
            status: components["schemas"]["NotificationStatus"];
            payload: {
                data: Record<string, unknown>;
            };
        };
        /** @description payload.data of APPLICATION_ACCEPTED_ON_DAY_LIST. Accepted and added to the day list. */
        PayloadV0AcceptedPriorityProtected: {
            registry_reference: components["schemas"]["RegistryReference"];
            /**
             * @description Always ACCEPTED.
             * @enum {string}
             */
            status: "ACCEPTED";
            priority: components["schemas"]["RegistryDateTime"];
        };
        /** @description An APPLICATION_ACCEPTED_ON_DAY_LIST notification. Accepted and added to the day list. */
        NotificationV0ApplicationAcceptedOnDayList: {
            /** @constant */
            notification_type: "APPLICATION_ACCEPTED_ON_DAY_LIST";
        } & (WithRequired<components["schemas"]["NotificationV0Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV0AcceptedPriorityProtected"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "APPLICATION_ACCEPTED_ON_DAY_LIST";
        });
        /** @description payload.data of APPLICATION_ACCEPTED_QUEUED_FOR_DAY_LIST. Accepted and queued for the day list. */
        PayloadV0AcceptedAwaitingPriority: {
            /**
             * @description Always ACCEPTED_AWAITING_PRIORITY.
             * @enum {string}
             */
            status: "ACCEPTED_AWAITING_PRIORITY";
        };
        /** @description An APPLICATION_ACCEPTED_QUEUED_FOR_DAY_LIST notification. Accepted and queued for the day list. */
        NotificationV0ApplicationAcceptedQueuedForDayList: {
            /** @constant */
            notification_type: "APPLICATION_ACCEPTED_QUEUED_FOR_DAY_LIST";
        } & (WithRequired<components["schemas"]["NotificationV0Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV0AcceptedAwaitingPriority"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "APPLICATION_ACCEPTED_QUEUED_FOR_DAY_LIST";
        });
        /** @description payload.data of APPLICATION_VALIDATION_FAILED. Failed validation. */
        PayloadV0ValidationFailed: {
            /**
             * @description Always VALIDATION_FAILED.
             * @enum {string}
             */
            status: "VALIDATION_FAILED";
        };
        /** @description An APPLICATION_VALIDATION_FAILED notification. Failed validation. */
        NotificationV0ApplicationValidationFailed: {
            /** @constant */
            notification_type: "APPLICATION_VALIDATION_FAILED";
        } & (WithRequired<components["schemas"]["NotificationV0Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV0ValidationFailed"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "APPLICATION_VALIDATION_FAILED";
        });
        /** @description payload.data of SYSTEM_ERROR. Not added to the day list because of a system error. */
        PayloadV0SystemError: {
            /**
             * @description Always SYSTEM_ERROR.
             * @enum {string}
             */
            status: "SYSTEM_ERROR";
        };
        /** @description A SYSTEM_ERROR notification. Not added to the day list because of a system error. */
        NotificationV0SystemError: {
            /** @constant */
            notification_type: "SYSTEM_ERROR";
        } & (WithRequired<components["schemas"]["NotificationV0Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV0SystemError"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "SYSTEM_ERROR";
        });
        /** @description payload.data of APPLICATION_CANCELLED. Application cancelled. */
        PayloadV0ApplicationCancelled: {
            /**
             * @description Always CANCELLED.
             * @enum {string}
             */
            status: "CANCELLED";
        };
        /** @description An APPLICATION_CANCELLED notification. Application cancelled. */
        NotificationV0ApplicationCancelled: {
            /** @constant */
            notification_type: "APPLICATION_CANCELLED";
        } & (WithRequired<components["schemas"]["NotificationV0Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV0ApplicationCancelled"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "APPLICATION_CANCELLED";
        });
        /** @description payload.data of APPLICATION_COMPLETED. Application completed. */
        PayloadV0ApplicationCompleted: {
            /**
             * @description Always COMPLETED.
             * @enum {string}
             */
            status: "COMPLETED";
        };
        /** @description An APPLICATION_COMPLETED notification. Application completed. */
        NotificationV0ApplicationCompleted: {
            /** @constant */
            notification_type: "APPLICATION_COMPLETED";
        } & (WithRequired<components["schemas"]["NotificationV0Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV0ApplicationCompleted"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "APPLICATION_COMPLETED";
        });
        /** @description payload.data of APPLICATION_CORRESPONDENCE_DESPATCHED. Correspondence was raised on the application (the requirement gives this payload's schema for both versions). */
        PayloadV0CorrespondenceDespatched: {
            documents: components["schemas"]["CorrespondenceDocuments"];
            registry_reference: components["schemas"]["RegistryReference"];
            application_request_id: components["schemas"]["Uuid"];
        };
        /** @description An APPLICATION_CORRESPONDENCE_DESPATCHED notification. Correspondence was raised on the application (the requirement gives this payload's schema for both versions). */
        NotificationV0ApplicationCorrespondenceDespatched: {
            /** @constant */
            notification_type: "APPLICATION_CORRESPONDENCE_DESPATCHED";
        } & (WithRequired<components["schemas"]["NotificationV0Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV0CorrespondenceDespatched"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "APPLICATION_CORRESPONDENCE_DESPATCHED";
        });
        /** @description A version 0 notification: one of the shapes below, chosen by notification_type. */
        NotificationV0: components["schemas"]["NotificationV0ApplicationAcceptedOnDayList"] | components["schemas"]["NotificationV0ApplicationAcceptedQueuedForDayList"] | components["schemas"]["NotificationV0ApplicationValidationFailed"] | components["schemas"]["NotificationV0SystemError"] | components["schemas"]["NotificationV0ApplicationCancelled"] | components["schemas"]["NotificationV0ApplicationCompleted"] | components["schemas"]["NotificationV0ApplicationCorrespondenceDespatched"];
        /** @description At most 100 notifications, oldest first (by created_datetime). */
        NotificationListV0: {
            data: components["schemas"]["NotificationV0"][];
        };
        /**
         * @description The ids of notifications to acknowledge, at most 100 in one call. The requirement's text calls it a comma
         *     separated list while its example is a JSON array; the array is what is accepted.
         */
        AcknowledgeRequest: {
            /**
             * @description Notification ids. Any string is taken: the requirement states no validation rule for acknowledge, so an id
             *     that is not a UUID, or that names no notification of the caller, never fails the call; version 0 lists it
             *     in `not_found` and version 1 leaves it out of `acknowledged`.
             */
            data: string[];
        };
        /** @description The ids that are now acknowledged and the ids that were not found (unknown, another business unit's, or not a UUID), each as it was sent. */
        AcknowledgeResponseV0: {
            data: {
                acknowledged: components["schemas"]["Uuid"][];
                not_found: string[];
            };
        };
        /**
         * @description The version 1 notification types (dotted).
         * @enum {string}
         */
        NotificationTypeV1: "application.accepted-priority-protected" | "application.accepted-priority-pending" | "application.validation-failed" | "application.error" | "application.correspondence-despatched" | "application.attachment-success" | "application.attachment-failed" | "application.message-success" | "application.message-failed" | "application.cancelled" | "application.completed";
        /** @description The members every version 1 notification has; `notification_type` selects the shape of `payload.data`. */
        NotificationV1Base: {
            notification_id: components["schemas"]["Uuid"];
            created_datetime: components["schemas"]["RegistryDateTime"];
            event_datetime: components["schemas"]["RegistryDateTime"];
            payload_schema: components["schemas"]["PayloadSchemaUri"];
            notification_type: components["schemas"]["NotificationTypeV1"];
            /**
             * @description The kind of subject. `APPLICATION` is the only value.
             * @enum {string}
             */
            subject_type: "APPLICATION";
            subject: components["schemas"]["Uuid"];
            /** @description The sub-unit label given at submission; null when none was given. May be absent. */
            additional_provider_filter?: components["schemas"]["AdditionalProviderFilter"] | null;
            status: components["schemas"]["NotificationStatus"];
            payload: {
                data: Record<string, unknown>;
            };
        };
        /**
         * @description A date-time without a zone, with fractional seconds (UTC), as in the version 1 priority of an accepted application.
         *     A real calendar date and time only: month 01-12, a day that exists in its month (29 February in leap years
         *     only: a year divisible by 4, but not by 100 unless by 400), hour 00-23, minute and second 00-59 (no leap second).
         * @example 2025-02-20T09:06:29.040
         */
        ZonelessDateTime: string;
        /** @description payload.data of application.accepted-priority-protected. Accepted and added to the day list; the application has priority. */
        PayloadV1AcceptedPriorityProtected: {
            /**
             * @description Always ACCEPTED_PRIORITY_PROTECTED.
             * @enum {string}
             */
            status: "ACCEPTED_PRIORITY_PROTECTED";
            priority: components["schemas"]["ZonelessDateTime"];
            registry_reference: components["schemas"]["RegistryReference"];
        };
        /** @description An application.accepted-priority-protected notification. Accepted and added to the day list; the application has priority. Client action: use application information to check errors and warnings. */
        NotificationV1AcceptedPriorityProtected: {
            /** @constant */
            notification_type: "application.accepted-priority-protected";
        } & (WithRequired<components["schemas"]["NotificationV1Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV1AcceptedPriorityProtected"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "application.accepted-priority-protected";
        });
        /** @description payload.data of application.accepted-priority-pending. Accepted and queued for the day list, which is closed. The requirement does not show this payload; it carries the status. */
        PayloadV1AcceptedPriorityPending: {
            /**
             * @description Always ACCEPTED_AWAITING_PRIORITY.
             * @enum {string}
             */
            status: "ACCEPTED_AWAITING_PRIORITY";
        };
        /** @description An application.accepted-priority-pending notification. Accepted and queued for the day list, which is closed. The requirement does not show this payload; it carries the status. Client action: wait for later notifications. */
        NotificationV1AcceptedPriorityPending: {
            /** @constant */
            notification_type: "application.accepted-priority-pending";
        } & (WithRequired<components["schemas"]["NotificationV1Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV1AcceptedPriorityPending"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "application.accepted-priority-pending";
        });
        /** @description payload.data of application.validation-failed. Failed validation; application information lists the errors. */
        PayloadV1ValidationFailed: {
            /**
             * @description Always VALIDATION_FAILED.
             * @enum {string}
             */
            status: "VALIDATION_FAILED";
        };
        /** @description An application.validation-failed notification. Failed validation; application information lists the errors. Client action: use application information to read the validation errors. */
        NotificationV1ValidationFailed: {
            /** @constant */
            notification_type: "application.validation-failed";
        } & (WithRequired<components["schemas"]["NotificationV1Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV1ValidationFailed"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "application.validation-failed";
        });
        /** @description payload.data of application.error. Not added to the day list because of a system error; resubmit. The requirement does not show this payload; it carries the status. */
        PayloadV1Error: {
            /**
             * @description Always SYSTEM_ERROR.
             * @enum {string}
             */
            status: "SYSTEM_ERROR";
        };
        /** @description An application.error notification. Not added to the day list because of a system error; resubmit. The requirement does not show this payload; it carries the status. Client action: resubmit; if the error persists, contact support. */
        NotificationV1Error: {
            /** @constant */
            notification_type: "application.error";
        } & (WithRequired<components["schemas"]["NotificationV1Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV1Error"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "application.error";
        });
        /** @description payload.data of application.correspondence-despatched. Correspondence was raised on the application; download the documents. */
        PayloadV1CorrespondenceDespatched: {
            documents: components["schemas"]["CorrespondenceDocuments"];
            registry_reference: components["schemas"]["RegistryReference"];
            application_request_id: components["schemas"]["Uuid"];
        };
        /** @description An application.correspondence-despatched notification. Correspondence was raised on the application; download the documents. Client action: download the documents (PDF) through the download endpoint. An early completion application later receives its ECM and ECR documents (given when the next application shows evidence of discharge) in a notification of this type. The sandbox's simulated registry sends them when another application naming one of the same titles completes, or on demand through its correspondence operation. */
        NotificationV1CorrespondenceDespatched: {
            /** @constant */
            notification_type: "application.correspondence-despatched";
        } & (WithRequired<components["schemas"]["NotificationV1Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV1CorrespondenceDespatched"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "application.correspondence-despatched";
        });
        /**
         * @description payload.data of application.attachment-success. A document was attached. The requirement does not show this
         *     payload; the registry's attach-a-document example (still named application.document-success there) carries
         *     `attachment_id`, the registry's number for the attachment. The gateway gives it for a document attached with
         *     Attach a document, and adds `document_id` (design) so that a client can tell which document it was; for the
         *     documents named in the submission itself only `document_id` is given.
         */
        PayloadV1AttachmentSuccess: {
            /** @description The registry's number for the attachment. */
            attachment_id?: number;
            document_id: components["schemas"]["Uuid"];
        };
        /** @description An application.attachment-success notification. A document was attached. The requirement does not show this payload; it names the document. Client action: wait for later notifications. */
        NotificationV1AttachmentSuccess: {
            /** @constant */
            notification_type: "application.attachment-success";
        } & (WithRequired<components["schemas"]["NotificationV1Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV1AttachmentSuccess"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "application.attachment-success";
        });
        /**
         * @description payload.data of application.attachment-failed. A document failed to attach (not one the business unit sent,
         *     never uploaded, an unsupported type, a password-protected PDF, a failed virus scan). The registry's payload is
         *     `failure_reason` (free text); the gateway adds `document_id` (design) so that a client can tell which document
         *     it was.
         */
        PayloadV1AttachmentFailed: {
            failure_reason: string;
            document_id?: components["schemas"]["Uuid"];
        };
        /** @description An application.attachment-failed notification. A document failed to attach (unsupported type, password-protected PDF, failed virus scan). Client action: review the error, fix, attach again. */
        NotificationV1AttachmentFailed: {
            /** @constant */
            notification_type: "application.attachment-failed";
        } & (WithRequired<components["schemas"]["NotificationV1Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV1AttachmentFailed"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "application.attachment-failed";
        });
        /** @description payload.data of application.message-success. A message was attached; `attachment_id` is the registry's number for it (an integer, as in the registry's example). */
        PayloadV1MessageSuccess: {
            attachment_id: number;
        };
        /** @description An application.message-success notification. A message was attached. Client action: wait for later notifications. */
        NotificationV1MessageSuccess: {
            /** @constant */
            notification_type: "application.message-success";
        } & (WithRequired<components["schemas"]["NotificationV1Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV1MessageSuccess"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "application.message-success";
        });
        /** @description payload.data of application.message-failed. A message failed to attach. */
        PayloadV1MessageFailed: {
            failure_reason: string;
        };
        /** @description An application.message-failed notification. A message failed to attach. Client action: review the error, fix, attach again. */
        NotificationV1MessageFailed: {
            /** @constant */
            notification_type: "application.message-failed";
        } & (WithRequired<components["schemas"]["NotificationV1Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV1MessageFailed"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "application.message-failed";
        });
        /** @description payload.data of application.cancelled. Application cancelled. The requirement does not show this payload; it carries the status and the cancellation documents. */
        PayloadV1Cancelled: {
            /**
             * @description Always CANCELLED.
             * @enum {string}
             */
            status: "CANCELLED";
            documents: components["schemas"]["CorrespondenceDocuments"];
            registry_reference?: components["schemas"]["RegistryReference"];
            application_request_id: components["schemas"]["Uuid"];
        };
        /** @description An application.cancelled notification. Application cancelled. The requirement does not show this payload; it carries the status and the cancellation documents. Client action: download any correspondence documents created. */
        NotificationV1Cancelled: {
            /** @constant */
            notification_type: "application.cancelled";
        } & (WithRequired<components["schemas"]["NotificationV1Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV1Cancelled"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "application.cancelled";
        });
        /** @description payload.data of application.completed. Application completed; download the documents. */
        PayloadV1Completed: {
            /**
             * @description Always COMPLETED.
             * @enum {string}
             */
            status: "COMPLETED";
            documents: components["schemas"]["CorrespondenceDocuments"];
            registry_reference: components["schemas"]["RegistryReference"];
            application_request_id: components["schemas"]["Uuid"];
            /** @description True when the application was subject to early completion. */
            was_subject_to_early_completion: boolean;
        };
        /** @description An application.completed notification. Application completed; download the documents. Client action: download the correspondence documents; application information gives full completion details. When was_subject_to_early_completion is true, the ECM and ECR documents follow later in an application.correspondence-despatched notification. */
        NotificationV1Completed: {
            /** @constant */
            notification_type: "application.completed";
        } & (WithRequired<components["schemas"]["NotificationV1Base"], "notification_type"> & {
            payload?: {
                data: components["schemas"]["PayloadV1Completed"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            notification_type: "application.completed";
        });
        /** @description A version 1 notification: one of the shapes below, chosen by notification_type. */
        NotificationV1: components["schemas"]["NotificationV1AcceptedPriorityProtected"] | components["schemas"]["NotificationV1AcceptedPriorityPending"] | components["schemas"]["NotificationV1ValidationFailed"] | components["schemas"]["NotificationV1Error"] | components["schemas"]["NotificationV1CorrespondenceDespatched"] | components["schemas"]["NotificationV1AttachmentSuccess"] | components["schemas"]["NotificationV1AttachmentFailed"] | components["schemas"]["NotificationV1MessageSuccess"] | components["schemas"]["NotificationV1MessageFailed"] | components["schemas"]["NotificationV1Cancelled"] | components["schemas"]["NotificationV1Completed"];
        /** @description At most 100 notifications, oldest first (by created_datetime). */
        NotificationListV1: {
            data: components["schemas"]["NotificationV1"][];
        };
        /** @description The ids that are now acknowledged (ids already acknowledged are listed again; unknown ids are left out). */
        AcknowledgeResponseV1: {
            data: {
                acknowledged: components["schemas"]["Uuid"][];
            };
        };
    };
    responses: {
        /** @description Credentials are missing, malformed or wrong. Nothing was changed. */
        RegistryErrorsUnauthorized: {
            headers: {
                /**
                 * @description The authentication scheme expected.
                 * @example Basic realm="land-registration-gateway"
                 */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RegistryErrors"];
            };
        };
        /**
         * @description No client certificate signed by the gateway's client CA was presented: the request came over plain HTTP, or over
         *     HTTPS without such a certificate (the registry's code `BG40005`). The registry requires mutual TLS on
         *     the title enquiries; the gateway does too while the sandbox setting `require_client_certificate` is `true` (the
         *     default). `npm start` serves HTTPS with mutual TLS and prints a demo client certificate.
         */
        RegistryErrorsClientCertificateRequired: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RegistryErrors"];
            };
        };
        /** @description The body is larger than 1 MiB (413-01). Nothing was changed. */
        RegistryErrorsPayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RegistryErrors"];
            };
        };
        /** @description The body is not application/json (415-01). Nothing was changed. */
        RegistryErrorsUnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RegistryErrors"];
            };
        };
        /** @description Rate limit exceeded, or too many failed logins (the failed-login budget of the basicAuth scheme, checked before the password; design). Retry after the delay in Retry-After. */
        RegistryErrorsTooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RegistryErrors"];
            };
        };
        /** @description The service cannot answer now: the gateway is shutting down, the sandbox injected a fault (`503-01`), its store is unreachable (`503-02`, a database restart or failover) or cannot accept writes (`503-03`, a full or read-only disk). Retry after the number of seconds in Retry-After (a submission with the same Idempotency-Key). */
        RegistryErrorsServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RegistryErrors"];
            };
        };
        /** @description The title number is not 1 to 9 upper-case letters and digits, or an undefined query parameter was sent (`BG40001`). */
        RegistryErrorCodesBadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RegistryErrorCodes"];
            };
        };
        /** @description Credentials are missing, malformed or wrong. Nothing was changed. */
        RegistryErrorCodesUnauthorized: {
            headers: {
                /**
                 * @description The authentication scheme expected.
                 * @example Basic realm="land-registration-gateway"
                 */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RegistryErrorCodes"];
            };
        };
        /** @description No client certificate signed by the operator's certificate authority was presented (the registry's code `BG40005`). */
        RegistryErrorCodesClientCertificateRequired: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RegistryErrorCodes"];
            };
        };
        /** @description No title with this number on the register (`BG40002`). */
        RegistryErrorCodesNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RegistryErrorCodes"];
            };
        };
        /** @description The service cannot answer now: the gateway is shutting down, the sandbox injected a fault (`503-01`), its store is unreachable (`503-02`, a database restart or failover) or cannot accept writes (`503-03`, a full or read-only disk). Retry after the number of seconds in Retry-After (a submission with the same Idempotency-Key). */
        RegistryErrorCodesServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RegistryErrorCodes"];
            };
        };
        /** @description Credentials are missing, malformed or wrong. Nothing was changed. */
        Unauthorized: {
            headers: {
                /**
                 * @description The authentication scheme expected (Basic on the registry's operations, Bearer on the sandbox control plane).
                 * @example Basic realm="land-registration-gateway"
                 */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The request body is larger than the operation allows. Nothing was changed. */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The request body's Content-Type is not `application/json`. Nothing was changed. */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Rate limit exceeded, or too many failed logins (the failed-login budget of the basicAuth scheme, checked before the password; design). Retry after the delay in Retry-After. */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The service cannot answer now: the gateway is shutting down, the sandbox injected a fault (`503-01`), its store is unreachable (`503-02`, a database restart or failover) or cannot accept writes (`503-03`, a full or read-only disk). Retry after the number of seconds in Retry-After (a submission with the same Idempotency-Key). */
        ServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The request does not match the operation's contract: a value fails its schema (`400-02`, with `errors`),
         *     the body is not well-formed JSON (`400-03`), or an undefined query parameter was sent (`400-04`).
         *     Nothing was changed.
         */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No such resource for the caller's business unit (another unit's resources are reported the same way). */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The application is not pending (`OC036`: COMPLETED, CANCELLED, VALIDATION_FAILED or SYSTEM_ERROR), or the request does not match its schema (`400-02`, one item per failing member; a body that is not JSON is one item). Nothing was attached. */
        AttachErrorsBadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AttachErrors"];
            };
        };
        /** @description Credentials are missing, malformed or wrong. Nothing was changed. */
        AttachErrorsUnauthorized: {
            headers: {
                /**
                 * @description The authentication scheme expected.
                 * @example Basic realm="land-registration-gateway"
                 */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AttachErrors"];
            };
        };
        /** @description No application with this id for the caller's business unit (`OC200`; another unit's application is reported the same way). */
        AttachErrorsNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AttachErrors"];
            };
        };
        /** @description The body is larger than 1 MiB (413-01). Nothing was changed. */
        AttachErrorsPayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AttachErrors"];
            };
        };
        /** @description The body is not application/json (415-01). Nothing was changed. */
        AttachErrorsUnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AttachErrors"];
            };
        };
        /** @description Rate limit exceeded, or too many failed logins (the failed-login budget of the basicAuth scheme, checked before the password; design). Retry after the delay in Retry-After. */
        AttachErrorsTooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AttachErrors"];
            };
        };
        /** @description The service cannot answer now: the gateway is shutting down, the sandbox injected a fault (`503-01`), its store is unreachable (`503-02`, a database restart or failover) or cannot accept writes (`503-03`, a full or read-only disk). Retry after the number of seconds in Retry-After (a submission with the same Idempotency-Key). */
        AttachErrorsServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AttachErrors"];
            };
        };
        /**
         * @description `created_after` is later than `created_before` (code 400-01, the requirement's problem), a parameter fails its
         *     schema (400-02), or an unknown parameter was sent (400-04). With the sandbox setting `strict_date_times` on,
         *     a date-time parameter in any shape but zone-less UTC (`2020-01-01T00:00:00`) is a 400-02 as well.
         */
        NotificationListBadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /**
         * @description The `message_id` the caller gave in its official search request.
         * @example os-2025-04-01-0009
         */
        MessageIdPath: components["schemas"]["MessageId"];
        /**
         * @description The title number in upper case (1 to 9 characters from A-Z and 0-9). Lower-case letters are refused with
         *     400 (`400-02`) rather than converted, because the registry's own services refuse them too.
         * @example ZZ100001
         */
        TitleNumberPath: components["schemas"]["TitleNumberUpperCase"];
        /**
         * @description A key the client generates for one submission (it replaced the registry's former message id). The same key with
         *     the same body answers the same application_request_id without submitting twice; the same key with another body
         *     is refused with 409 (code 409-01). Keys are scoped to the business unit.
         *
         *     One exception, so that the retry the requirement asks for after SYSTEM_ERROR is possible: once the
         *     application a key names has ended in SYSTEM_ERROR, the key is released. Sent again (with the same body or
         *     another) it creates a new application with a new application_request_id and the key names that one from then
         *     on; the failed application keeps its status. In every other status the replay and 409 rules above hold. The
         *     registry publishes no behaviour for a reused key (its stubs do not enforce one); these rules are our design.
         * @example 9b0c1d7e-submission-0001
         */
        IdempotencyKey: string;
        /** @description Only notifications created after this date-time. Later than created_before → 400 with code 400-01. */
        CreatedAfter: components["schemas"]["QueryDateTime"];
        /** @description Only notifications created before this date-time. */
        CreatedBefore: components["schemas"]["QueryDateTime"];
        /** @description Only notifications with this status. Without it, version 0 lists NEW and ACKNOWLEDGED notifications alike. The requirement names no default for version 0, and the registry's version 0 test stub answers a list without a filter with an acknowledged notification beside the new ones (its spec's prose says unacknowledged; the stub is the newer, observable behaviour). A pull loop on version 0 sends `status=NEW`. */
        NotificationStatusFilterV0: components["schemas"]["NotificationStatus"];
        /** @description Version 0 spelling (one r). Only notifications whose event_datetime is after this date-time. */
        OccuredAfterV0: components["schemas"]["QueryDateTime"];
        /** @description Version 0 spelling (one r). Only notifications whose event_datetime is before this date-time. */
        OccuredBeforeV0: components["schemas"]["QueryDateTime"];
        /** @description Only notifications of this type. A type that does not exist matches nothing. */
        NotificationTypeFilter: string;
        /** @description Only notifications about one application, given by its application_request_id. */
        SubjectFilter: string;
        /** @description Only notifications of applications submitted with this label. When omitted, only applications submitted with no label are returned. */
        AdditionalProviderFilterQuery: components["schemas"]["AdditionalProviderFilter"];
        /** @description Maximum number of notifications in the response. Version 0 states no maximum; larger values are accepted and the response still holds at most 100. */
        LimitV0: number;
        /** @description Only notifications with this status. Default NEW. */
        NotificationStatusFilterV1: components["schemas"]["NotificationStatus"];
        /** @description Only notifications whose event_datetime is after this date-time. */
        OccurredAfter: components["schemas"]["QueryDateTime"];
        /** @description Only notifications whose event_datetime is before this date-time. */
        OccurredBefore: components["schemas"]["QueryDateTime"];
        /** @description Only notifications of this subject type; APPLICATION is the only value. */
        SubjectTypeFilter: "APPLICATION";
        /** @description Maximum number of notifications in the response. At most 100. */
        LimitV1: number;
    };
    requestBodies: never;
    headers: {
        /**
         * @description The gateway's identifier of this request, also in its logs. Quote it when reporting a problem.
         * @example req-1a2b3c
         */
        RequestId: string;
        /**
         * @description Seconds to wait before trying again.
         * @example 2
         */
        RetryAfter: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    officialSearchOfWhole: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OfficialSearchRequest"];
            };
        };
        responses: {
            /** @description The search was made; the certificate and the data of the search. */
            201: {
                headers: {
                    /**
                     * @description The Poll Request Service address of this search, which answers the same result again.
                     * @example /api/v1/poll-requests/os-2025-04-01-0001
                     */
                    Location?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfficialSearchResult"];
                };
            };
            /**
             * @description The search was accepted but its result is deferred (manual processing or out of hours). Poll the
             *     `Location` address from `expected_response_at` on.
             */
            202: {
                headers: {
                    /**
                     * @description The Poll Request Service address of this search.
                     * @example /api/v1/poll-requests/os-2025-04-01-0009
                     */
                    Location: string;
                    "Retry-After": components["headers"]["RetryAfter"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfficialSearchDeferred"];
                };
            };
            /**
             * @description The request does not match its schema (`OS1API002`, one item per failing member), for example a
             *     `search_from_date` before 1800-01-01, or a registered title searched without `search_from_date`; or the
             *     body is not JSON (`OS1API002`). Nothing was searched and the `message_id` is not used up.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegistryErrors"];
                };
            };
            401: components["responses"]["RegistryErrorsUnauthorized"];
            403: components["responses"]["RegistryErrorsClientCertificateRequired"];
            /**
             * @description This user already submitted a search with this `message_id` (`BG40011`). Nothing was searched. The
             *     earlier search's result is at `/api/v1/poll-requests/{message_id}`.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegistryErrors"];
                };
            };
            413: components["responses"]["RegistryErrorsPayloadTooLarge"];
            415: components["responses"]["RegistryErrorsUnsupportedMediaType"];
            /**
             * @description The search breaks a business rule of the register; `code` is the registry's rule code. No priority was
             *     given and the `message_id` is not used up.
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegistryErrors"];
                };
            };
            429: components["responses"]["RegistryErrorsTooManyRequests"];
            503: components["responses"]["RegistryErrorsServiceUnavailable"];
        };
    };
    getPollRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The `message_id` the caller gave in its official search request.
                 * @example os-2025-04-01-0009
                 */
                message_id: components["parameters"]["MessageIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The search has been made; its certificate and data. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfficialSearchResult"];
                };
            };
            /** @description The result is not ready yet. Poll again after `Retry-After` seconds. */
            202: {
                headers: {
                    /**
                     * @description Seconds until `expected_response_at`, at least 1.
                     * @example 900
                     */
                    "Retry-After": number;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfficialSearchDeferred"];
                };
            };
            /** @description The `message_id` is malformed, or an undefined query parameter was sent (`OS1API002`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegistryErrors"];
                };
            };
            401: components["responses"]["RegistryErrorsUnauthorized"];
            403: components["responses"]["RegistryErrorsClientCertificateRequired"];
            /** @description This user made no official search with this `message_id` (`BG40002`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegistryErrors"];
                };
            };
            429: components["responses"]["RegistryErrorsTooManyRequests"];
            503: components["responses"]["RegistryErrorsServiceUnavailable"];
        };
    };
    getOfficialCopiesAvailability: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The title number in upper case (1 to 9 characters from A-Z and 0-9). Lower-case letters are refused with
                 *     400 (`400-02`) rather than converted, because the registry's own services refuse them too.
                 * @example ZZ100001
                 */
                title_number: components["parameters"]["TitleNumberPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The availability of official copies of the title. */
            200: {
                headers: {
                    /**
                     * @description Size of the business unit's token bucket, in tokens (4500; divided by X-RateLimit-Requested-Tokens, the most requests in a burst).
                     * @example 4500
                     */
                    "X-RateLimit-Burst-Capacity"?: components["schemas"]["TitleRateLimitCount"];
                    /**
                     * @description Tokens added to the bucket each second (75).
                     * @example 75
                     */
                    "X-RateLimit-Replenish-Rate"?: components["schemas"]["TitleRateLimitCount"];
                    /**
                     * @description Tokens each request takes (60).
                     * @example 60
                     */
                    "X-RateLimit-Requested-Tokens"?: components["schemas"]["TitleRateLimitCount"];
                    /**
                     * @description Tokens left in the bucket after this request; below X-RateLimit-Requested-Tokens the next request is answered 429.
                     * @example 4440
                     */
                    "X-RateLimit-Remaining"?: components["schemas"]["TitleRateLimitCount"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfficialCopiesAvailability"];
                };
            };
            400: components["responses"]["RegistryErrorCodesBadRequest"];
            401: components["responses"]["RegistryErrorCodesUnauthorized"];
            403: components["responses"]["RegistryErrorCodesClientCertificateRequired"];
            404: components["responses"]["RegistryErrorCodesNotFound"];
            /** @description More than 75 requests a minute by this business unit (the registry's BG40006), or too many failed logins (the failed-login budget of the basicAuth scheme, checked before the password; design). */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegistryErrorCodes"];
                };
            };
            503: components["responses"]["RegistryErrorCodesServiceUnavailable"];
        };
    };
    getRegisteredProprietorNames: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The title number in upper case (1 to 9 characters from A-Z and 0-9). Lower-case letters are refused with
                 *     400 (`400-02`) rather than converted, because the registry's own services refuse them too.
                 * @example ZZ100001
                 */
                title_number: components["parameters"]["TitleNumberPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The registered proprietors of the title. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProprietorNames"];
                };
            };
            400: components["responses"]["RegistryErrorCodesBadRequest"];
            401: components["responses"]["RegistryErrorCodesUnauthorized"];
            403: components["responses"]["RegistryErrorCodesClientCertificateRequired"];
            404: components["responses"]["RegistryErrorCodesNotFound"];
            /** @description Outside the service hours, 06:30 to 23:00 London time (the registry's BG50003). */
            423: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegistryErrorCodes"];
                };
            };
            /** @description More than 6 requests a minute by this user (the registry's BG40006), or too many failed logins (the failed-login budget of the basicAuth scheme, checked before the password; design). */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegistryErrorCodes"];
                };
            };
            503: components["responses"]["RegistryErrorCodesServiceUnavailable"];
        };
    };
    submitApplication: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description A key the client generates for one submission (it replaced the registry's former message id). The same key with
                 *     the same body answers the same application_request_id without submitting twice; the same key with another body
                 *     is refused with 409 (code 409-01). Keys are scoped to the business unit.
                 *
                 *     One exception, so that the retry the requirement asks for after SYSTEM_ERROR is possible: once the
                 *     application a key names has ended in SYSTEM_ERROR, the key is released. Sent again (with the same body or
                 *     another) it creates a new application with a new application_request_id and the key names that one from then
                 *     on; the failed application keeps its status. In every other status the replay and 409 rules above hold. The
                 *     registry publishes no behaviour for a reused key (its stubs do not enforce one); these rules are our design.
                 * @example 9b0c1d7e-submission-0001
                 */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApplicationSubmission"];
            };
        };
        responses: {
            /** @description Accepted for processing (or the same submission seen again with this Idempotency-Key, unless the application it named ended in SYSTEM_ERROR; then a new application was created). */
            202: {
                headers: {
                    /**
                     * @description Address of the application information.
                     * @example /v0/applications/6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10/information
                     */
                    Location?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApplicationSubmitted"];
                };
            };
            /** @description The submission does not match its schema or dates a charge or transfer after today (400-02, each failing member in `errors`), the body is not JSON (400-03), or the Idempotency-Key header is missing (400-02). Nothing was submitted. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The Idempotency-Key was used before with a different body (409-01), and the application it names has not ended in SYSTEM_ERROR. Nothing was submitted. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApplicationInformation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The application_request_id. */
                id: components["schemas"]["Uuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The application's information. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApplicationInformation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    attachDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The application_request_id. */
                id: components["schemas"]["Uuid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AttachDocumentRequest"];
            };
        };
        responses: {
            /** @description Accepted; the outcome follows as an `application.attachment-success` or `application.attachment-failed` notification. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["AttachErrorsBadRequest"];
            401: components["responses"]["AttachErrorsUnauthorized"];
            404: components["responses"]["AttachErrorsNotFound"];
            413: components["responses"]["AttachErrorsPayloadTooLarge"];
            415: components["responses"]["AttachErrorsUnsupportedMediaType"];
            429: components["responses"]["AttachErrorsTooManyRequests"];
            503: components["responses"]["AttachErrorsServiceUnavailable"];
        };
    };
    attachMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The application_request_id. */
                id: components["schemas"]["Uuid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AttachMessageRequest"];
            };
        };
        responses: {
            /** @description Accepted; the outcome follows as an `application.message-success` or `application.message-failed` notification. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["AttachErrorsBadRequest"];
            401: components["responses"]["AttachErrorsUnauthorized"];
            404: components["responses"]["AttachErrorsNotFound"];
            413: components["responses"]["AttachErrorsPayloadTooLarge"];
            415: components["responses"]["AttachErrorsUnsupportedMediaType"];
            429: components["responses"]["AttachErrorsTooManyRequests"];
            503: components["responses"]["AttachErrorsServiceUnavailable"];
        };
    };
    createUploadUrl: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UploadUrlRequest"];
            };
        };
        responses: {
            /** @description The upload address, valid for ten minutes to the start of the upload, once. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadUrlResponse"];
                };
            };
            /** @description A value fails its schema (400-02), such as an unknown document_type, file_length outside 1..41943040, or file_sha256 not 44 characters of base64 that decode to 32 bytes. Or the body is not JSON (400-03). Nothing was created. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    uploadDocument: {
        parameters: {
            query: {
                /** @description Part of the signed address (expiry, Unix seconds). Missing → 400 (400-02); altered → 403. */
                expires: string;
                /** @description Part of the signed address (HMAC-SHA256, hex). Missing → 400 (400-02); altered → 403. */
                signature: string;
            };
            header: {
                /**
                 * @description The file_sha256 given at generation. Missing or different → 403 (the requirement's rule for this header), never a schema error.
                 * @example n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=
                 */
                "X-Provider-Checksum-Sha256": string;
            };
            path: {
                /**
                 * @description The document id, as part of the signed address. An altered or unknown id fails the signature (403), like any other change to the address.
                 * @example 8c2e4f6a-1b3d-4e5f-9a7b-0c1d2e3f4a5b
                 */
                document_id: string;
            };
            cookie?: never;
        };
        /** @description The raw bytes of the file, with Content-Length equal to file_length. */
        requestBody: {
            content: {
                "application/octet-stream": unknown;
            };
        };
        responses: {
            /** @description Uploaded. The asynchronous checks follow. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The address lacks `expires` or `signature` (400-02), or the body ended before Content-Length bytes arrived (400-05). Nothing was kept. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Signature verification failure (403-01) or an expired address (403-02). Nothing was kept. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The address was used already, or another upload to it is in progress (409-04). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description More than 41943040 bytes arrived although Content-Length matched the signed file_length (413-01), which a transport that honours Content-Length never sends; an over-size Content-Length is 403 first. Nothing was kept. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    downloadDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                download_id: components["schemas"]["DownloadId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What a client that follows the redirect receives in the end (the answer of fetchDocumentContent at `Location`). The gateway itself always answers 302. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": unknown;
                };
            };
            /** @description The document is at `Location`, a short-lived signed address that needs no credentials. */
            302: {
                headers: {
                    /**
                     * @description The download address. GET it without credentials; it answers 200 with the bytes.
                     * @example /v1/document-downloads/3b4c1f0e9d2a7c6b5e8f1a2d3c4b5a6f7e8d9c0b1a2f3e4d5c6b7a8f9e0d1c2b?expires=1740042989&signature=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
                     */
                    Location: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The download id is not 64 lower-case hexadecimal characters (400-02). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    fetchDocumentContent: {
        parameters: {
            query: {
                /** @description Part of the signed address (expiry, Unix seconds). Missing → 400 (400-02); altered → 403. */
                expires: string;
                /** @description Part of the signed address (HMAC-SHA256, hex). Missing → 400 (400-02); altered → 403. */
                signature: string;
            };
            header?: never;
            path: {
                download_id: components["schemas"]["DownloadId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document's bytes. */
            200: {
                headers: {
                    /**
                     * @description Suggested file name.
                     * @example attachment; filename="LTR-3b4c1f0e.pdf"
                     */
                    "Content-Disposition"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": unknown;
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description The address is expired or its signature does not verify (403-04). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            404: components["responses"]["NotFound"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listNotificationsV0: {
        parameters: {
            query?: {
                /** @description Only notifications created after this date-time. Later than created_before → 400 with code 400-01. */
                created_after?: components["parameters"]["CreatedAfter"];
                /** @description Only notifications created before this date-time. */
                created_before?: components["parameters"]["CreatedBefore"];
                /** @description Only notifications with this status. Without it, version 0 lists NEW and ACKNOWLEDGED notifications alike. The requirement names no default for version 0, and the registry's version 0 test stub answers a list without a filter with an acknowledged notification beside the new ones (its spec's prose says unacknowledged; the stub is the newer, observable behaviour). A pull loop on version 0 sends `status=NEW`. */
                status?: components["parameters"]["NotificationStatusFilterV0"];
                /** @description Version 0 spelling (one r). Only notifications whose event_datetime is after this date-time. */
                occured_after?: components["parameters"]["OccuredAfterV0"];
                /** @description Version 0 spelling (one r). Only notifications whose event_datetime is before this date-time. */
                occured_before?: components["parameters"]["OccuredBeforeV0"];
                /** @description Only notifications of this type. A type that does not exist matches nothing. */
                notification_type?: components["parameters"]["NotificationTypeFilter"];
                /** @description Only notifications about one application, given by its application_request_id. */
                subject?: components["parameters"]["SubjectFilter"];
                /** @description Only notifications of applications submitted with this label. When omitted, only applications submitted with no label are returned. */
                additional_provider_filter?: components["parameters"]["AdditionalProviderFilterQuery"];
                /** @description Maximum number of notifications in the response. Version 0 states no maximum; larger values are accepted and the response still holds at most 100. */
                limit?: components["parameters"]["LimitV0"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The notifications that match, oldest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationListV0"];
                };
            };
            400: components["responses"]["NotificationListBadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    acknowledgeNotificationsV0: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AcknowledgeRequest"];
            };
        };
        responses: {
            /** @description What was acknowledged. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AcknowledgeResponseV0"];
                };
            };
            /** @description The body is not an object with `data`, an array of at most 100 strings (400-02), or not JSON (400-03). Nothing was acknowledged. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listNotificationsV1: {
        parameters: {
            query?: {
                /** @description Only notifications created after this date-time. Later than created_before → 400 with code 400-01. */
                created_after?: components["parameters"]["CreatedAfter"];
                /** @description Only notifications created before this date-time. */
                created_before?: components["parameters"]["CreatedBefore"];
                /** @description Only notifications with this status. Default NEW. */
                status?: components["parameters"]["NotificationStatusFilterV1"];
                /** @description Only notifications whose event_datetime is after this date-time. */
                occurred_after?: components["parameters"]["OccurredAfter"];
                /** @description Only notifications whose event_datetime is before this date-time. */
                occurred_before?: components["parameters"]["OccurredBefore"];
                /** @description Only notifications of this type. A type that does not exist matches nothing. */
                notification_type?: components["parameters"]["NotificationTypeFilter"];
                /** @description Only notifications of this subject type; APPLICATION is the only value. */
                subject_type?: components["parameters"]["SubjectTypeFilter"];
                /** @description Only notifications about one application, given by its application_request_id. */
                subject?: components["parameters"]["SubjectFilter"];
                /** @description Only notifications of applications submitted with this label. When omitted, only applications submitted with no label are returned. */
                additional_provider_filter?: components["parameters"]["AdditionalProviderFilterQuery"];
                /** @description Maximum number of notifications in the response. At most 100. */
                limit?: components["parameters"]["LimitV1"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The notifications that match, oldest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationListV1"];
                };
            };
            400: components["responses"]["NotificationListBadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    acknowledgeNotificationsV1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AcknowledgeRequest"];
            };
        };
        responses: {
            /** @description What was acknowledged. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AcknowledgeResponseV1"];
                };
            };
            /** @description The body is not an object with `data`, an array of at most 100 strings (400-02), or not JSON (400-03). Nothing was acknowledged. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
type WithRequired<T, K extends keyof T> = T & {
    [P in K]-?: T[P];
};
