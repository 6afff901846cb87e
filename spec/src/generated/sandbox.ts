// Generated from spec/dist/sandbox.json (sha256 f7ebd142ac9bffd40ab4133f80e026e49ef04dc005a7349c8b1aadf1c7773922) by openapi-typescript. Do not edit.

export interface paths {
    "/sandbox/v1/business-units": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a business unit and its user
         * @description Creates a business unit with one active user and answers the user's credentials, generated at random, and the
         *     business unit's sandbox token. The password and the token are shown only in this answer. Use the credentials as
         *     HTTP Basic on the registry interface: the applications, documents and notifications of this business unit are
         *     visible only to them, so two business units make a test of isolation. Use the token on this control plane to
         *     drive that business unit alone. Each call creates a new business unit; the body is
         *     optional.
         *
         *     Admin token only: a unit token is refused with 403 (code `403-05`).
         */
        post: operations["createBusinessUnit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/business-units/{business_unit_id}/token": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `business_unit_id` answered when the business unit was created. */
                business_unit_id: components["schemas"]["Uuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a business unit a new sandbox token
         * @description Issues the business unit a new sandbox token and answers it; this is the only time it is shown (the gateway
         *     keeps its SHA-256 hash). The token it replaces stops working at once, on every gateway instance sharing the
         *     store. A business unit created before unit tokens existed gets its first token this way. The unit's password,
         *     records, clock and settings are unchanged. No body is read.
         *
         *     With the admin token, any business unit; with a unit token, only its own: another business unit is not found
         *     (404, code `404-01`), the same answer as one that does not exist.
         */
        post: operations["rotateBusinessUnitToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/clock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the gateway's clock
         * @description Answers the time on the gateway's clock. This clock, not the host's, decides upload address expiry (ten
         *     minutes), notification retention (one month), priority periods, business hours of the title enquiries, and
         *     every date-time the gateway writes. After a reset it shows real time.
         *
         *     Scope: with the admin token, the global clock, which every business unit follows until it sets its own; with a
         *     unit token, that business unit's clock (the global one until the unit sets or advances its own).
         */
        get: operations["getClock"];
        /**
         * Set the gateway's clock
         * @description Sets the gateway's clock to the given time, forwards or backwards, and answers it. The clock keeps running
         *     at real speed from there (the gateway keeps an offset from real time) until the next change or a reset.
         *     Records already written keep their date-times, so a test that needs notifications in time order sets the
         *     clock before it creates them. Deadlines that the new time has passed (upload addresses, retention,
         *     automatic decisions) count as passed from this request on.
         *
         *     Scope: with the admin token, the global clock (units that set their own keep theirs); with a unit token, that
         *     business unit's own clock, which from then on no longer follows the global one until the unit is reset. Only
         *     that unit's records (notification instants and retention, upload expiry, priority, deferred title enquiry
         *     results, automatic decisions) follow it.
         */
        put: operations["setClock"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/clock/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move the gateway's clock forward
         * @description Adds whole seconds to the gateway's clock and answers its new time. Whatever falls due meanwhile is due
         *     from this request on: an upload address older than ten minutes is refused, notifications older than one
         *     month are gone, and (with `processing: automatic`) applications waiting for their automatic decision get
         *     it. Zero seconds is allowed and changes nothing.
         *
         *     Scope: with the admin token, the global clock; with a unit token, that business unit's own clock (starting from
         *     the global time if the unit had not set its own), and only that unit's records fall due.
         */
        post: operations["advanceClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/day-list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the state of the day list
         * @description Answers whether the simulated registry's day list is open and how many applications wait for it. The day
         *     list is opened and closed only through this control plane; the gateway's clock does not close it. It is
         *     open after a reset.
         *
         *     Scope: either token may read the day list, which is registry-wide; with a unit token `awaiting_priority` counts
         *     that business unit's applications only.
         */
        get: operations["getDayList"];
        /**
         * Open or close the day list
         * @description Closes or opens the day list and answers its state.
         *
         *     - While it is closed, an application that passes validation becomes `ACCEPTED_AWAITING_PRIORITY`
         *       (notification `application.accepted-priority-pending`, version 0 `APPLICATION_ACCEPTED_QUEUED_FOR_DAY_LIST`)
         *       instead of `ACCEPTED_PRIORITY_PROTECTED`.
         *     - `open: true` gives priority to every application that is `ACCEPTED_AWAITING_PRIORITY`, in the order they
         *       were accepted: each becomes `ACCEPTED_PRIORITY_PROTECTED` with a registry reference and a priority
         *       timestamp from the gateway's clock, and emits `application.accepted-priority-protected` (version 0
         *       `APPLICATION_ACCEPTED_ON_DAY_LIST`). `promoted` counts them. This happens even when the day list was
         *       already open, so applications queued by a transition request can be released the same way.
         *     - `open: false` on a closed day list changes nothing.
         *
         *     Admin token only: the day list is registry-wide, so a unit token is refused with 403 (code `403-05`).
         */
        put: operations["setDayList"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/applications/{id}/transitions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `application_request_id` answered when the application was submitted, in any business unit. */
                id: components["schemas"]["Uuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move an application to another status
         * @description Makes the simulated registry's decision on an application now: moves it to the status named by `to`, emits
         *     the matching notification to the business unit that submitted it, and answers the new status with the
         *     notifications emitted. Meant for `processing: manual`, but allowed in `automatic` too (an application
         *     decided here is no longer decided automatically). The day list's state does not restrict a requested
         *     transition. Every notification's `event_datetime` is the gateway's clock at this request.
         *
         *     Legal transitions and the notification each emits (version 1 type, version 0 type):
         *
         *     | From | `to` | Version 1 | Version 0 |
         *     |---|---|---|---|
         *     | `VALIDATING` | `VALIDATION_FAILED` | `application.validation-failed` | `APPLICATION_VALIDATION_FAILED` |
         *     | `VALIDATING` | `SYSTEM_ERROR` | `application.error` | `SYSTEM_ERROR` |
         *     | `VALIDATING` | `ACCEPTED_AWAITING_PRIORITY` | `application.accepted-priority-pending` | `APPLICATION_ACCEPTED_QUEUED_FOR_DAY_LIST` |
         *     | `VALIDATING` or `ACCEPTED_AWAITING_PRIORITY` | `ACCEPTED_PRIORITY_PROTECTED` | `application.accepted-priority-protected` | `APPLICATION_ACCEPTED_ON_DAY_LIST` |
         *     | `ACCEPTED_PRIORITY_PROTECTED` | `COMPLETED` | `application.completed` | `APPLICATION_COMPLETED` |
         *     | `ACCEPTED_PRIORITY_PROTECTED` | `CANCELLED` | `application.cancelled` | `APPLICATION_CANCELLED` |
         *
         *     Any other move, including one to the status the application already has, is refused with 409 (code
         *     `409-03`) and changes nothing; `VALIDATION_FAILED`, `SYSTEM_ERROR`, `COMPLETED` and `CANCELLED` are final.
         *
         *     What each target does besides:
         *     - `VALIDATION_FAILED`: `errors` become the application information's `errors`.
         *     - `ACCEPTED_PRIORITY_PROTECTED`: the application gets a registry reference (`registry_reference`, or a fresh
         *       one from the gateway) and a priority timestamp from the gateway's clock.
         *     - `COMPLETED` and `CANCELLED`: the simulated registry generates the documents (PDFs), adds them to the
         *       application's correspondence and to the notification; `early_completion` becomes the notification's
         *       `was_subject_to_early_completion`.
         *
         *     With a `duplicate_rate` above zero, a notification may be emitted twice; both are listed.
         *
         *     Scope: with the admin token, any business unit's application; with a unit token, only that unit's own: another
         *     unit's application is not found (404, code `404-01`), the same answer as one that does not exist.
         */
        post: operations["transitionApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/applications/{id}/correspondence": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `application_request_id` answered when the application was submitted, in any business unit. */
                id: components["schemas"]["Uuid"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Raise correspondence on an application
         * @description Makes the simulated registry despatch correspondence (a requisition, a letter, official copies ...) on an
         *     application, without changing its status. The registry generates one PDF per code in `documents`, adds
         *     them as one record to the application information's `correspondence`, and emits
         *     `application.correspondence-despatched` (version 0 `APPLICATION_CORRESPONDENCE_DESPATCHED`) to the business
         *     unit that submitted it. The documents can be downloaded with that business unit's credentials.
         *
         *     Only an application that has a registry reference (`ACCEPTED_PRIORITY_PROTECTED`, `COMPLETED` or
         *     `CANCELLED`) can receive correspondence; any other is refused with 409 (code `409-03`). To give the early
         *     completion documents after completion, send `["ECM", "ECR"]` for a completed application.
         *
         *     Scope: with the admin token, any business unit's application; with a unit token, only that unit's own: another
         *     unit's application is not found (404, code `404-01`), the same answer as one that does not exist.
         */
        post: operations["despatchCorrespondence"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the sandbox settings
         * @description Answers every setting of the simulated registry. After a reset each has its default.
         */
        get: operations["getSettings"];
        /**
         * Change sandbox settings
         * @description Changes the settings the body names and keeps the others; answers every setting. The change applies from
         *     the next request on.
         *
         *     - `processing`: `automatic` (the default) lets the simulated registry validate and decide each submitted
         *       application by itself after a short delay; `manual` leaves applications `VALIDATING` until a transition
         *       is requested, so a test controls every outcome.
         *     - `duplicate_rate`: the probability that a notification is delivered twice (same `event_datetime` and
         *       `notification_type`, new `notification_id`). 0.1 by default, since delivery is at least once; set 0 in a
         *       test that counts notifications exactly.
         *     - `duplicate_seed`: with an integer, which notifications are duplicated is reproducible (same seed, same
         *       actions, same duplicates); `null` (the default) draws at random.
         *     - `latency_ms`: a delay added to every response of the registry interface, not to this control plane.
         *     - `error_rate`: the share of application lifecycle, document and notification requests answered 503
         *       (code `503-01`) instead, for fault testing.
         *     - `strict_date_times`: when true, the notification lists refuse (400-02) a date-time parameter in any shape
         *       but the requirement's example, zone-less UTC (`2020-01-01T00:00:00`, fractional seconds allowed).
         *     - `service_hours`: `enforced` (the default) or `always-open`: whether registered proprietor names answer 423
         *       outside 06:30 to 23:00 London time, as the registry does.
         *     - `require_client_certificate`: `true` (the default) or `false`: whether title enquiries need a client
         *       certificate (mutual TLS), as the registry's do, or are also answered over plain HTTP.
         *
         *     Scope: with the admin token, the global settings, which every business unit follows setting by setting unless it
         *     set its own; with a unit token, the settings in force for that business unit (its own where it set them, the
         *     global ones elsewhere).
         *
         *     Scope: with the admin token, the global settings (a business unit that set a setting itself keeps its own value
         *     of it); with a unit token, that business unit's own settings, which apply to its requests and records alone (its
         *     latency, faults, processing, duplicates, strict date-times, service hours and client certificate requirement)
         *     and are layered over the global ones.
         */
        put: operations["updateSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/system-errors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make the next submissions end in SYSTEM_ERROR
         * @description The registry ends an application in SYSTEM_ERROR when it fails internally, and the requirement says the
         *     client then retries the submission. This makes the next `count` submissions (of one business unit, or of
         *     any when `business_unit_id` is omitted) end that way, whatever the `processing` setting: each is answered
         *     202 as usual, then moves at once from VALIDATING to SYSTEM_ERROR and emits `application.error` (version 0
         *     `SYSTEM_ERROR`). A replayed submission (same `Idempotency-Key`, same body) is not a new submission and does
         *     not use one up. Calls add up; a reset clears them. To fail one application already submitted, use a
         *     transition to SYSTEM_ERROR instead.
         *
         *     The failed application's `Idempotency-Key` is then released (see submitApplication), so the client's retry
         *     with the same key creates a new application.
         *
         *     Scope: with the admin token, any business unit (or any, without `business_unit_id`); with a unit token, its own
         *     business unit only: without `business_unit_id` the unit's own submissions, and another unit's id is not found
         *     (404, code `404-01`).
         */
        post: operations["scheduleSystemErrors"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reset the sandbox
         * @description Deletes every record the gateway holds: business units and their users, applications, upload addresses
         *     and uploaded documents, generated documents, notifications, title enquiry results and used `message_id`s,
         *     and idempotency keys. The clock returns to real time, every setting to its default, and the day list
         *     opens. The register of fictional titles is fixed reference data and stays. A demo business unit that the
         *     gateway was configured to create at start-up is created again with the same credentials. The audit trail of
         *     the control plane stays (the reset is recorded in it). No body is read.
         *
         *     Scope: with the admin token, everything as above. With a unit token, that business unit alone: its applications,
         *     documents, generated documents, notifications, title enquiry results, rate-limit counts, scheduled system
         *     errors, clock and settings go (the clock and settings follow the global ones again); the business unit, its
         *     user, password and token stay, and no other unit is touched.
         */
        post: operations["resetSandbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the audit trail of the control plane
         * @description Lists what was done through this control plane: who acted, what they asked, when, and how it was answered,
         *     oldest first. The admin token reads every entry; a business unit's token reads only the entries of its own
         *     actions (those it made with its token; what the admin did to its applications is in the admin's view).
         *
         *     **What is recorded.** Every request to an operation of this document that can change something (every
         *     method but GET), whatever its outcome: applied, refused as invalid, not found or in conflict. Every request
         *     to any operation, reads included, that was refused for its credentials (401): an audit keeps failed attempts.
         *     Other reads are not recorded, since they change nothing. The entry is written before the answer is sent, so a
         *     request made after an answer sees its entry. The same entry is written to the gateway's structured log, as
         *     one info line `{"audit": <entry>, "msg": "control-plane action"}`.
         *
         *     **Who.** `actor.kind` is `admin` (the admin token), `unit` (a business unit's token, with its
         *     `business_unit_id`) or `unknown`: the token was missing or wrong. The token is checked as the headers arrive,
         *     before the body is read, so a body that is not JSON, too large, or of another media type is recorded with the
         *     actor whose token it carried.
         *
         *     **When.** `recorded_at` by the host's wall clock; `sandbox_clock_at` by the sandbox clock of whoever acted,
         *     both read when the answer was ready.
         *
         *     **Never recorded.** Tokens, passwords, headers, the query string and the answer's body. `request_body` is a
         *     bounded summary of the JSON body sent, with members whose name suggests a secret redacted.
         *
         *     **Paging.** At most `limit` entries (100 at most), oldest first by `sequence`. To read on, pass the last
         *     entry's `sequence` as `after`. Filters combine: `operation_id`, `actor`, `business_unit_id` and
         *     `recorded_after` (an exclusive bound on `recorded_at`). With a business unit's token, a `business_unit_id`
         *     of another unit, or `actor` other than `unit`, lists nothing.
         *
         *     **Retention.** For each actor (the admin, each business unit, and `unknown`) the newest 10,000 entries are
         *     kept; recording one more deletes that actor's oldest. So neither a busy business unit nor a stream of
         *     refused requests can push another actor's entries out. A reset, of the whole sandbox or of one business
         *     unit, keeps the trail and is recorded in it.
         */
        get: operations["listAuditEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/readiness-runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List readiness runs
         * @description The readiness runs, newest first, at most 100, without their evidence (read one run for it). A unit token lists
         *     its own business unit's runs only; the admin token lists every unit's, or one unit's with `business_unit_id`.
         *     A run whose deadline has passed on its unit's clock is finished, and listed so, when it is read.
         */
        get: operations["listReadinessRuns"];
        put?: never;
        /**
         * Start a readiness run that examines the business unit's software
         * @description The sandbox examines the integrator's own software: point it at a business unit, start a run, let the software
         *     work as it does in production, then read the verdict per check (`getReadinessRun`). The registry offers no test
         *     environment for the lifecycle services and no accreditation of vendor software; a run shows, with evidence,
         *     whether the software copes with what the registry will send it.
         *
         *     **What a run does.** At its start, the run makes the sandbox raise, for the business unit, what each check needs
         *     (in one transaction, nothing when the start is refused):
         *
         *     | check | stimulus |
         *     |---|---|
         *     | `duplicates` | one event (`application.accepted-priority-protected`, version 0 `APPLICATION_ACCEPTED_ON_DAY_LIST`) of an application the run submits for the unit, delivered twice: two notification ids, the same `event_datetime` and `notification_type` |
         *     | `paging` | 250 notifications at once, one for each of 250 applications the run submits for the unit (the same event) |
         *     | `nothing-left-behind` | nothing of its own: every notification of the unit raised while the run lasts counts |
         *     | `downloads` | correspondence (two documents: a letter, `LTR`, and an official copy of the register, `OCR`) despatched on an application the run submits for the unit and protects on the day list: a record of its information's `correspondence`, and `application.correspondence-despatched` (version 0 `APPLICATION_CORRESPONDENCE_DESPATCHED`); the documents can be downloaded with the unit's credentials |
         *
         *     The applications are real (their information can be read), accepted and protected on the day list, and nothing
         *     decides them: none awaits priority, so that reopening the day list (anybody's, another team's put-back steps
         *     included) moves none of them and raises nothing for the unit during its run.
         *
         *     While it lasts, a run also changes what the registry answers the unit where a check needs it: with
         *     `expired-upload`, the unit's first upload address of the run (`POST /v0/documents/url`) is issued already expired,
         *     as if the software had waited more than ten minutes before its PUT, which is then refused (403, code `403-02`);
         *     every later address is valid as usual.
         *
         *     **The unit's own submissions.** Three checks raise nothing at the start: each acts on one submission of the
         *     software during the run (a new application the gateway stores from `POST /v0/applications`, answered 202; a
         *     replay of an `Idempotency-Key` already used is not a new one). They take the run's submissions in this fixed
         *     order, among those the run examines: `validation-failed` the first, `system-error` the next, `lost-answer` the
         *     next. Each submission is taken once, atomically in the store, whichever gateway instance received it, and its
         *     check's `instructions` say which one it is. The software's own resubmissions count like any other.
         *
         *     | check | what the gateway does with its submission |
         *     |---|---|
         *     | `validation-failed` | fails its validation (VALIDATION_FAILED, `application.validation-failed`) |
         *     | `system-error` | ends it in SYSTEM_ERROR, as a scheduled system error does (`scheduleSystemErrors`): `application.error`, and its `Idempotency-Key` released |
         *     | `lost-answer` | stores it, then closes the connection before the 202 is written; the observation records status 444 |
         *
         *     Submissions after those are processed as any other.
         *
         *     While the run lasts, the gateway observes each request of the unit's software to the registry interface (see
         *     `ReadinessObservation`; a request to a signed upload or download address, which carries no credentials, is the
         *     unit's whose document it names) and judges each check from those observations. Nothing is observed for a unit without a run.
         *
         *     **How long.** `time_limit_seconds` of the unit's own sandbox clock (60 to 604800, default 3600). The run ends
         *     when that clock reaches the `deadline`: every check is then decided. Advancing the unit's clock past the
         *     deadline ends it at once. A run can be cancelled (`cancelReadinessRun`).
         *
         *     **One at a time.** A business unit has at most one running run: a second start is refused (409, code `409-05`)
         *     and changes nothing. Runs of different units run side by side and never see each other's requests.
         *
         *     **Isolated.** From its start to its end, the sandbox holds the registry-wide state for the run's unit as it was
         *     when the run began: the global settings then in force become the unit's own (`getSettings` with the unit token
         *     shows them), the unit keeps a clock of its own from the global clock's time, its applications are decided by the
         *     day list as it was then (`getDayList` with the unit token shows it), and system errors scheduled for any unit no
         *     longer reach it. So nothing another unit or the admin token does to the settings, the global clock, the day list
         *     or the system errors changes what the run raises, observes or judges. What the unit changes with its own token
         *     applies, and stays the unit's own after the run; everything else follows the registry-wide state again when the
         *     run ends (finished or cancelled), and its applications that waited for priority get it if the day list is open.
         *
         *     **Scope.** With a unit token, the token's own business unit (`business_unit_id` may be omitted; another unit's is
         *     404, code `404-01`). With the admin token, `business_unit_id` is required (400, code `400-02`, when missing).
         *
         *     **Kept.** A run and its observations (at most 10,000 a run) stay until the unit or the sandbox is reset.
         */
        post: operations["startReadinessRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/readiness-runs/{run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a readiness run's verdicts, evidence and instructions
         * @description The run's overall verdict and, per check, its verdict (`passed`, `failed`, `not_exercised`, `running`), the rule
         *     it is tied to, how to pass it, the `instructions` where the software must act while the run is running, and the
         *     evidence: what was expected, what was found, and the observed requests that bear on it (method, operation,
         *     query, status, the time on the unit's clock). A check may be decided before the run ends (`paging` fails at the
         *     first acknowledge call of more than 100 ids, `duplicates` passes once both ids are acknowledged);
         *     `nothing-left-behind` is decided at the end. Once the unit's clock has reached the deadline the run is
         *     finished, and its verdicts no longer change. A CI job gates on `verdict` once `status` is no longer `running`.
         *
         *     Scope: a unit token reads its own business unit's runs only; another unit's run is not found (404, code
         *     `404-01`), as a missing one.
         */
        get: operations["getReadinessRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/readiness-runs/{run_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a readiness run
         * @description Ends a running run now: checks decided by then keep their verdict, the others are `not_exercised`, and nothing
         *     more is observed. The run and its evidence stay readable (a cancel is an action, not a deletion: hence `POST
         *     .../cancel` rather than `DELETE`); a reset of the unit removes them. Cancelling a run that has ended already
         *     changes nothing and answers it as it is. The unit may then start another run.
         *
         *     Scope: as `getReadinessRun` (another unit's run is 404, code `404-01`).
         */
        post: operations["cancelReadinessRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/readiness-runs/{run_id}/junit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A readiness run as a JUnit XML report
         * @description The run of `getReadinessRun` as JUnit XML, for a CI's test report: one `<testsuite>` for the run, one
         *     `<testcase>` per check (named by the check, its class name `readiness`), in the order the run answers them.
         *     A `failed` check carries a `<failure>` (what was found, then what was expected), a `not_exercised` check a
         *     `<skipped>` (the software never did what the check needs), and a check still `running` a `<skipped>` whose
         *     message says it is running: the report of a running run is not a verdict. Each test case's `<system-out>`
         *     holds the rule, how to pass, and the observed requests with their times on the unit's clock. Every value
         *     taken from a request (a query, an `Idempotency-Key`) is escaped.
         *
         *     A CI job gates on the exit code of `lrg readiness run` or on `verdict` of `getReadinessRun`; this report is
         *     for people reading the CI's test results.
         *
         *     Scope: as `getReadinessRun` (another unit's run is 404, code `404-01`).
         */
        get: operations["getReadinessRunJunit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/readiness-runs/{run_id}/html": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A readiness run as a self-contained HTML report
         * @description The run of `getReadinessRun` as one HTML page for people: the overall verdict, a summary table (one row per
         *     check: its name, its verdict and one line of what was found), the run's details, then per check its verdict, the
         *     rule it is tied to, what was expected and found, how to pass it, the instructions while it runs, and the
         *     evidence as a timeline of the observed requests (sequence, time on the unit's clock, method, operation, query,
         *     status, whether credentials were sent, the ids acknowledged, the `Idempotency-Key`). The page is
         *     self-contained: its style is inline and it loads nothing (no script, image, font or stylesheet from anywhere),
         *     so it can be kept as a CI artifact and opened from disk. Every value taken from a request is escaped.
         *
         *     Scope: as `getReadinessRun` (another unit's run is 404, code `404-01`).
         */
        get: operations["getReadinessRunHtml"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/v1/readiness-runs/{run_id}/evidence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A readiness run's evidence bundle, with every observation and a SHA-256
         * @description The run as `getReadinessRun` answers it, and every request of the unit's software the run observed and kept (up
         *     to 10,000, oldest first), not only the first 100 of each check that the run's evidence holds; with a SHA-256 of
         *     the rest (see `ReadinessEvidence` for what it covers). It is one JSON document for a vendor to save and hand to
         *     a customer or an auditor as the record of a run: `lrg readiness evidence RUN_ID -o FILE` saves it, and
         *     `lrg readiness verify FILE` checks its SHA-256.
         *
         *     Read it once the run ended: while it runs, the bundle is a snapshot whose verdicts may still change (`run.status`
         *     says `running`).
         *
         *     Scope: as `getReadinessRun` (another unit's run is 404, code `404-01`).
         */
        get: operations["getReadinessRunEvidence"];
        put?: never;
        post?: never;
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
        /** @description Optional details of the business unit to create. The body may be omitted altogether. */
        SandboxBusinessUnitRequest: {
            /**
             * @description A display name for the business unit, without control characters. When omitted the gateway makes one up.
             * @example Harbour Conveyancing LLP
             */
            name?: string;
        };
        /**
         * Format: uuid
         * @description A UUID in its 36-character textual form.
         * @example 6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10
         */
        Uuid: string;
        /**
         * @description A business unit's sandbox token: `lrgu_` and 43 characters (256 random bits, base64url). Send it as
         *     `Authorization: Bearer <token>` on the control plane to act on that business unit alone. It is shown only when it
         *     is issued (at creation and at each rotation); the gateway keeps only its SHA-256 hash.
         * @example lrgu_RXhhbXBsZSBvbmx5OiBub3QgYSByZWFsIHVuaXQgdG8
         */
        SandboxToken: string;
        /**
         * @description A business unit just created, with its one user and its sandbox token. The password and the token are shown only
         *     in this answer; the gateway keeps only a hash of each. Use the username and password as HTTP Basic credentials on
         *     the registry interface, and the token as the bearer token of this control plane to drive that business unit
         *     alone (its own clock, settings, transitions, correspondence and reset).
         */
        SandboxBusinessUnit: {
            business_unit_id: components["schemas"]["Uuid"];
            /**
             * @description The user's name, generated by the gateway and unique across business units. Never contains a colon.
             * @example bu-5d0e7a3c
             */
            username: string;
            /**
             * @description The user's password, generated at random (printable ASCII without spaces).
             * @example q7Vw2LmZ9xRt4KpB8sNe3HcY
             */
            password: string;
            sandbox_token: components["schemas"]["SandboxToken"];
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
        /** @description A business unit's new sandbox token, answered once; the token it replaces no longer works. */
        SandboxUnitToken: {
            business_unit_id: components["schemas"]["Uuid"];
            sandbox_token: components["schemas"]["SandboxToken"];
        };
        /**
         * @description A date-time in UTC with exactly three fractional digits and a trailing `Z`.
         *     A real calendar date and time only: month 01-12, a day that exists in its month (29 February in leap years
         *     only: a year divisible by 4, but not by 100 unless by 400), hour 00-23, minute and second 00-59 (no leap second).
         * @example 2025-02-20T09:06:29.040Z
         */
        MillisecondDateTime: string;
        /** @description The gateway's clock, as it reads at the moment of the answer. */
        SandboxClock: {
            now: components["schemas"]["MillisecondDateTime"];
        };
        /**
         * Format: date-time
         * @description A date-time given to the sandbox: date, `T`, time with seconds, optional fractional seconds (up to nine
         *     digits, kept to the millisecond), and a zone, `Z` or `±hh:mm` (hour 00-23, minute 00-59). A value without a
         *     zone is refused, so a test never depends on the gateway's local time.
         *     A real calendar date and time only: month 01-12, a day that exists in its month (29 February in leap years
         *     only: a year divisible by 4, but not by 100 unless by 400), hour 00-23, minute and second 00-59 (no leap
         *     second). The pattern says as much as `format: date-time`, for tools that read a format as an annotation only.
         * @example 2025-03-03T09:00:00Z
         */
        SandboxDateTime: string;
        /** @description The time to set the gateway's clock to. */
        SandboxClockSetRequest: {
            now: components["schemas"]["SandboxDateTime"];
        };
        /** @description How far to move the gateway's clock forward. */
        SandboxClockAdvanceRequest: {
            /**
             * @description Whole seconds to add to the clock, at most 31622400 (366 days). Zero leaves it as it is.
             * @example 601
             */
            seconds: number;
        };
        /** @description The state of the simulated registry's day list. */
        SandboxDayList: {
            /**
             * @description Whether the day list is open. When closed, applications accepted meanwhile wait for priority.
             * @example true
             */
            open: boolean;
            /**
             * @description How many applications, across all business units, are `ACCEPTED_AWAITING_PRIORITY` now.
             * @example 0
             */
            awaiting_priority: number;
            /**
             * @description Only in the answer to a change: how many applications this request moved from
             *     `ACCEPTED_AWAITING_PRIORITY` to `ACCEPTED_PRIORITY_PROTECTED`. Always 0 when closing.
             * @example 2
             */
            promoted?: number;
        };
        /** @description Open or close the day list. */
        SandboxDayListRequest: {
            /**
             * @description `true` opens the day list (and gives priority to every application waiting for it); `false` closes it.
             * @example false
             */
            open: boolean;
        };
        /**
         * @description One validation error to record on an application that fails validation. It appears as given in the
         *     `errors` of the application's information.
         */
        SandboxApplicationError: {
            /**
             * @description The rule that failed, as application information gives it (see ApplicationError; for example a registry rule name of spec/registry-data/validation-errors.json).
             * @example unknown-title-number
             */
            type: string;
            /**
             * @description What is wrong, for a human.
             * @example The title number does not exist in the registry.
             */
            detail: string;
            /**
             * @description JSON pointer into the submitted application, or null (the default) when the error is not tied to one member.
             * @example /titles/0/title_number
             */
            pointer?: string | null;
        };
        /** @description Fail validation. The application is not added to the day list. */
        SandboxTransitionToValidationFailed: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            to: "VALIDATION_FAILED";
            /**
             * @description The validation errors to record, in this order. When omitted, the gateway records one error of its own,
             *     type `sandbox-validation-failure` (pointer null), so that application information never shows a failure
             *     without a reason.
             */
            errors?: components["schemas"]["SandboxApplicationError"][];
        };
        /** @description Fail with a system error. The application is not added to the day list; the client is expected to resubmit. */
        SandboxTransitionToSystemError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            to: "SYSTEM_ERROR";
        };
        /**
         * @description Accept the application and queue it for the day list, whether or not the day list is closed. It gets priority
         *     at the next `PUT /sandbox/v1/day-list` with `open: true`, or by a transition to `ACCEPTED_PRIORITY_PROTECTED`.
         */
        SandboxTransitionToAcceptedAwaitingPriority: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            to: "ACCEPTED_AWAITING_PRIORITY";
        };
        /**
         * @description The registry's reference for an application on the day list, 7 characters from A-Z and 0-9.
         * @example A7K2Q9B
         */
        RegistryReference: string;
        /**
         * @description Accept the application onto the day list, whether or not the day list is open. Its priority timestamp is the
         *     gateway's clock at this request.
         */
        SandboxTransitionToAcceptedPriorityProtected: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            to: "ACCEPTED_PRIORITY_PROTECTED";
            /**
             * @description The registry reference to give the application. Omit it to let the gateway assign a fresh one (the usual
             *     case). A reference already held by another application is refused (409).
             */
            registry_reference?: components["schemas"]["RegistryReference"];
        };
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
         * @description Codes of the documents the simulated registry generates, one PDF per entry, in this order.
         * @example [
         *       "LTR"
         *     ]
         */
        SandboxDocumentCodes: components["schemas"]["CorrespondenceDocumentTypeCode"][];
        /** @description Complete the application. The simulated registry generates the completion documents. */
        SandboxTransitionToCompleted: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            to: "COMPLETED";
            /**
             * @description Whether the application was subject to early completion; given as `was_subject_to_early_completion` in the notification.
             * @default false
             */
            early_completion?: boolean;
            /** @description The documents to generate. When omitted, `CMT` and `REG`. */
            documents?: components["schemas"]["SandboxDocumentCodes"];
        };
        /** @description Cancel the application. The simulated registry generates the cancellation documents. */
        SandboxTransitionToCancelled: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            to: "CANCELLED";
            /** @description The documents to generate. When omitted, `CAN`. */
            documents?: components["schemas"]["SandboxDocumentCodes"];
        };
        /**
         * @description The status to move an application to, chosen by `to`, with the details of that outcome. Each target has its
         *     own members; a member of another target is refused (400).
         */
        SandboxTransitionRequest: components["schemas"]["SandboxTransitionToValidationFailed"] | components["schemas"]["SandboxTransitionToSystemError"] | components["schemas"]["SandboxTransitionToAcceptedAwaitingPriority"] | components["schemas"]["SandboxTransitionToAcceptedPriorityProtected"] | components["schemas"]["SandboxTransitionToCompleted"] | components["schemas"]["SandboxTransitionToCancelled"];
        /**
         * @description VALIDATING: still being processed, not yet on the day list. VALIDATION_FAILED: not added to the day list
         *     because of validation errors (see `errors`). ACCEPTED_AWAITING_PRIORITY: passed validation, queued because the
         *     day list is closed. ACCEPTED_PRIORITY_PROTECTED: on the day list with priority. SYSTEM_ERROR: not added because
         *     of a system error; retry or contact support. COMPLETED and CANCELLED: the outcome of a protected application.
         * @enum {string}
         */
        ApplicationStatus: "VALIDATING" | "VALIDATION_FAILED" | "ACCEPTED_AWAITING_PRIORITY" | "ACCEPTED_PRIORITY_PROTECTED" | "SYSTEM_ERROR" | "COMPLETED" | "CANCELLED";
        /**
         * @description A date-time as the registry emits it on notifications: ISO 8601 in UTC with optional fractional seconds and
         *     an optional trailing `Z`. The gateway emits milliseconds and `Z` (`2025-02-20T09:06:29.040Z`).
         *     A real calendar date and time only: month 01-12, a day that exists in its month (29 February in leap years
         *     only: a year divisible by 4, but not by 100 unless by 400), hour 00-23, minute and second 00-59 (no leap second).
         * @example 2025-02-20T09:06:29.040Z
         */
        RegistryDateTime: string;
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
        /**
         * @description The version 1 notification types (dotted).
         * @enum {string}
         */
        NotificationTypeV1: "application.accepted-priority-protected" | "application.accepted-priority-pending" | "application.validation-failed" | "application.error" | "application.correspondence-despatched" | "application.attachment-success" | "application.attachment-failed" | "application.message-success" | "application.message-failed" | "application.cancelled" | "application.completed";
        /**
         * @description The version 0 notification types (upper case). APPLICATION_CORRESPONDENCE_DESPATCHED is our name for the
         *     version 0 view of correspondence, whose payload schema the requirement gives without naming its type.
         * @enum {string}
         */
        NotificationTypeV0: "APPLICATION_ACCEPTED_ON_DAY_LIST" | "APPLICATION_ACCEPTED_QUEUED_FOR_DAY_LIST" | "APPLICATION_VALIDATION_FAILED" | "SYSTEM_ERROR" | "APPLICATION_CANCELLED" | "APPLICATION_COMPLETED" | "APPLICATION_CORRESPONDENCE_DESPATCHED";
        /**
         * @description A notification that a sandbox request caused. It is one notification, listed by `/v1/notifications` under
         *     `notification_type` and by `/v0/notifications` under `v0_notification_type`, with the same
         *     `notification_id`; it goes to the business unit that submitted the application. Leaving VALIDATING, an
         *     application first reports each document of its submission (application.attachment-success or
         *     application.attachment-failed, version 1 only), each at its own instant.
         */
        SandboxEmittedNotification: {
            notification_id: components["schemas"]["Uuid"];
            notification_type: components["schemas"]["NotificationTypeV1"];
            /** @description Null for attachment results, which version 0 does not list. */
            v0_notification_type: components["schemas"]["NotificationTypeV0"] | null;
            /**
             * @description True for an extra delivery of the same event made because of the `duplicate_rate` setting: same
             *     `event_datetime` and `notification_type` as the first, a new `notification_id`.
             */
            duplicate: boolean;
        };
        /** @description The notifications a request emitted, in the order they were created; duplicates follow the notification they repeat. At most 202 (an attachment result for each of up to 100 documents and the status notification, each possibly delivered twice). */
        SandboxEmittedNotifications: components["schemas"]["SandboxEmittedNotification"][];
        /** @description The application after the transition, and the notifications the transition emitted. */
        SandboxTransitionResult: {
            application_request_id: components["schemas"]["Uuid"];
            previous_status: components["schemas"]["ApplicationStatus"];
            status: components["schemas"]["ApplicationStatus"];
            /** @description Present once the application is on the day list (`ACCEPTED_PRIORITY_PROTECTED`, `COMPLETED`, `CANCELLED`). */
            registry_reference?: components["schemas"]["RegistryReference"];
            /** @description Present once the application is on the day list; when it got priority, on the gateway's clock. */
            priority_timestamp?: components["schemas"]["MillisecondDateTime"];
            /** @description For `COMPLETED` and `CANCELLED`, the documents generated, downloadable with the business unit's credentials. */
            documents?: components["schemas"]["CorrespondenceDocuments"];
            notifications: components["schemas"]["SandboxEmittedNotifications"];
        };
        /** @description The documents of a piece of correspondence (a requisition, a letter, official copies ...) to raise on an application. */
        SandboxCorrespondenceRequest: {
            documents: components["schemas"]["SandboxDocumentCodes"];
        };
        /** @description The correspondence raised, its generated documents, and the notification that announces it. */
        SandboxCorrespondenceResult: {
            application_request_id: components["schemas"]["Uuid"];
            registry_reference: components["schemas"]["RegistryReference"];
            /**
             * @description The identifier of this correspondence in the `correspondence` of application information.
             * @example 8c2d6e1f-4a3b-4c5d-9e7f-0a1b2c3d4e5f
             */
            record_id: string;
            documents: components["schemas"]["CorrespondenceDocuments"];
            notifications: components["schemas"]["SandboxEmittedNotifications"];
        };
        /**
         * @description Who decides submitted applications. `automatic` (the default): the simulated registry validates and decides
         *     each application by itself a short delay after submission, measured on the gateway's clock, as the real
         *     registry would. `manual`: applications stay `VALIDATING` until a transition is requested, so a test decides
         *     every outcome. The setting applies to applications still `VALIDATING` when it changes. In either mode a
         *     requested transition is applied at once.
         * @default automatic
         * @example manual
         * @enum {string}
         */
        SandboxProcessing: "automatic" | "manual";
        /**
         * @description The probability that a notification is delivered twice, to exercise at-least-once handling. The second
         *     delivery has the same `event_datetime` and `notification_type` and a new `notification_id`. The default, 0.1,
         *     delivers about one event in ten twice: the registry's delivery is at least once, and a client that never
         *     sees a duplicate in the sandbox never learns to handle one. 0 never duplicates (for tests that count
         *     notifications exactly); 1 always does.
         * @default 0.1
         * @example 0.25
         */
        SandboxDuplicateRate: number;
        /**
         * @description Milliseconds of delay added to every response of the registry interface (not to this control plane nor to
         *     the health, metrics and docs routes), to exercise client timeouts. At most 60000.
         * @default 0
         * @example 250
         */
        SandboxLatency: number;
        /**
         * @description The share of application lifecycle, document and notification requests answered with a fault instead:
         *     503 with problem code `503-01` and `Retry-After`, nothing changed. Each request is drawn independently. Title
         *     enquiries and this control plane are never affected. 0 (the default) injects no fault.
         * @default 0
         * @example 0.1
         */
        SandboxErrorRate: number;
        /**
         * @description Makes duplicate delivery reproducible. With a seed, which events are delivered twice follows a pseudo-random
         *     sequence started from it: the same seed and the same actions (in the same order, at the same
         *     `duplicate_rate`) give the same duplicates. Setting it, even to its current value, restarts the sequence; so
         *     does a restart of the gateway. `null` (the default) draws at random.
         * @default null
         * @example 42
         */
        SandboxDuplicateSeed: number | null;
        /**
         * @description When true, the date-time query parameters of the notification lists (`created_after`, `created_before`,
         *     `occurred_*`, `occured_*`) accept only the shape of the requirement's example: a UTC date and time without a
         *     zone, with seconds and optional fractional seconds (`2020-01-01T00:00:00`, `2020-01-01T00:00:00.123`). Any
         *     other shape (a `Z`, an offset, no seconds, a lower-case `t`) is refused with 400 (code 400-02, the parameter
         *     named in `errors`). The registry publishes no rule for the zone of these parameters, so this is the one
         *     shape that is safe against it; turn this on to prove a client sends it. False (the default) accepts every
         *     shape of QueryDateTime.
         * @default false
         * @example true
         */
        SandboxStrictDateTimes: boolean;
        /**
         * @description Whether the registered proprietor names service keeps the registry's service hours. `enforced` (the default, as
         *     the registry behaves): from 23:00 to 06:30 London time, by the gateway's clock, it answers 423 (problem code
         *     `423-01`, the registry's `BG50003`) with `Retry-After` up to the next opening. `always-open`: it answers at any
         *     hour. The default is the registry's behaviour so that code which never met a 423 in the sandbox does not meet
         *     its first one in production; move the clock (`PUT /sandbox/v1/clock`) to work at a fixed hour instead.
         *
         *     The official search of whole is not affected: out of hours the registry accepts it and defers the result
         *     (`202`, `BG20002`), and so does the gateway whatever this setting. Official copy availability is served around
         *     the clock.
         * @default enforced
         * @example always-open
         * @enum {string}
         */
        SandboxServiceHours: "enforced" | "always-open";
        /**
         * @description Whether title enquiries need a client certificate (mutual TLS), as the registry's do. `true` (the default): a
         *     title enquiry that reaches the gateway over plain HTTP, or over HTTPS without a certificate signed by the
         *     gateway's client CA, answers 403 in the registry's error envelope, code `BG40005`. `npm start` serves HTTPS with mutual TLS beside plain
         *     HTTP and prints a demo client certificate to use. `false`: title enquiries are also answered over plain HTTP,
         *     for tools that cannot present a certificate.
         * @default true
         * @example false
         */
        SandboxRequireClientCertificate: boolean;
        /** @description How the simulated registry behaves. After a reset every setting has its default. */
        SandboxSettings: {
            processing: components["schemas"]["SandboxProcessing"];
            duplicate_rate: components["schemas"]["SandboxDuplicateRate"];
            latency_ms: components["schemas"]["SandboxLatency"];
            error_rate: components["schemas"]["SandboxErrorRate"];
            duplicate_seed: components["schemas"]["SandboxDuplicateSeed"];
            strict_date_times: components["schemas"]["SandboxStrictDateTimes"];
            service_hours: components["schemas"]["SandboxServiceHours"];
            require_client_certificate: components["schemas"]["SandboxRequireClientCertificate"];
        };
        /** @description The settings to change; settings not named keep their value. */
        SandboxSettingsUpdate: {
            processing?: components["schemas"]["SandboxProcessing"];
            duplicate_rate?: components["schemas"]["SandboxDuplicateRate"];
            latency_ms?: components["schemas"]["SandboxLatency"];
            error_rate?: components["schemas"]["SandboxErrorRate"];
            duplicate_seed?: components["schemas"]["SandboxDuplicateSeed"];
            strict_date_times?: components["schemas"]["SandboxStrictDateTimes"];
            service_hours?: components["schemas"]["SandboxServiceHours"];
            require_client_certificate?: components["schemas"]["SandboxRequireClientCertificate"];
        };
        /** @description Which submissions end in SYSTEM_ERROR. The body may be omitted (the next submission of any business unit). */
        SandboxSystemErrorRequest: {
            /** @description Only submissions of this business unit. When omitted, the next submissions of any business unit. */
            business_unit_id?: components["schemas"]["Uuid"];
            /**
             * @description How many of the next submissions end in SYSTEM_ERROR.
             * @default 1
             */
            count?: number;
        };
        /** @description The submissions still due to end in SYSTEM_ERROR, for the business unit named (or for any business unit). */
        SandboxSystemErrors: {
            /** @description The business unit the count applies to, or null for submissions of any business unit. */
            business_unit_id: components["schemas"]["Uuid"] | null;
            /** @description How many of its next submissions will end in SYSTEM_ERROR. */
            pending: number;
        };
        /**
         * @description Who acted on the control plane. `admin`: the admin token of the gateway's configuration. `unit`: a business
         *     unit's own token (`business_unit_id` names it). `unknown`: the gateway did not establish who sent the request:
         *     its token was missing or wrong, or it was refused before its token was checked (a body that is not JSON, too
         *     large, or of another media type).
         * @example admin
         * @enum {string}
         */
        SandboxAuditActorKind: "admin" | "unit" | "unknown";
        /** @description Who made a control-plane request, as its bearer token proved. */
        SandboxAuditActor: {
            kind: components["schemas"]["SandboxAuditActorKind"];
            /** @description The business unit whose token was used; null unless `kind` is `unit`. */
            business_unit_id: components["schemas"]["Uuid"] | null;
        };
        /**
         * @description One control-plane request: who made it, what it asked, when, and how it was answered. Never holds a token, a
         *     password, a header or the body of the answer.
         */
        SandboxAuditEntry: {
            /**
             * @description The entry's place in the trail; increases in the order entries are recorded (numbers may be skipped). Pass it as `after` to read on.
             * @example 42
             */
            sequence: number;
            /** @description When the answer was ready, by the host's wall clock (real time, whatever the sandbox clock says). */
            recorded_at: components["schemas"]["MillisecondDateTime"];
            /**
             * @description The same moment by the sandbox clock of whoever acted: the business unit's clock for a unit token, the
             *     gateway's clock otherwise. Read when the answer was ready, so after a clock change it shows the new time,
             *     and after a reset real time.
             */
            sandbox_clock_at: components["schemas"]["MillisecondDateTime"];
            actor: components["schemas"]["SandboxAuditActor"];
            /**
             * @description The `operationId` of the operation called.
             * @example updateSettings
             */
            operation_id: string;
            /**
             * @description The HTTP method of the request.
             * @example PUT
             * @enum {string}
             */
            method: "GET" | "PUT" | "POST" | "DELETE" | "PATCH";
            /**
             * @description The path requested, without its query string.
             * @example /sandbox/v1/settings
             */
            path: string;
            /**
             * @description A summary of the JSON object the request carried, null when it carried none or when it was not read (the
             *     credentials were refused: they are checked before the body is read). Members whose name suggests a
             *     secret (containing pass, token, secret, authorization, credential or private, or ending in key) are
             *     replaced by `"[redacted]"`. Strings and member names are cut to 200 characters, arrays and objects to their
             *     first 20 items or members, 100 values in all; an object or array nested deeper than 4 levels (the body is
             *     level 1) is replaced by `"[nested]"`.
             * @example {
             *       "processing": "manual"
             *     }
             */
            request_body: Record<string, unknown> | null;
            /**
             * @description The HTTP status answered.
             * @example 200
             */
            status: number;
            /** @description The problem `code` of a refused request (an entry of the catalogue), null when it succeeded. */
            problem_code: string | null;
            /**
             * @description The request's `X-Request-Id`, also the `reqId` of its lines in the structured log.
             * @example 5f2a1c-1b
             */
            request_id: string;
        };
        /** @description At most 100 audit entries, oldest first (by `sequence`). */
        SandboxAuditList: {
            data: components["schemas"]["SandboxAuditEntry"][];
        };
        /**
         * @description `running` until the unit's clock reaches the run's `deadline` (`finished`: every check is decided then) or the run
         *     is cancelled (`cancelled`: checks not decided by then are `not_exercised`).
         * @example running
         * @enum {string}
         */
        ReadinessRunStatus: "running" | "finished" | "cancelled";
        /**
         * @description The verdict of a check, or of a whole run: `passed`, `failed` (with the evidence why), `not_exercised` (the software
         *     never did what the check needs, e.g. it listed no notifications during the run, or the run was cancelled before the
         *     check could be decided) or `running` (not decided yet; the run goes on). A run's overall verdict is `running` while
         *     it runs; then `failed` if any check failed, `passed` if every check passed, else `not_exercised`.
         * @example passed
         * @enum {string}
         */
        ReadinessVerdict: "passed" | "failed" | "not_exercised" | "running";
        /**
         * @description A behaviour of the integrator's software that a readiness run examines. Each name is tied to the rule it checks
         *     (`x-enumDescriptions`: the row of `TRACEABILITY.md` or the registry's published material); the run's answer gives,
         *     per check, what was expected and how to pass it.
         * @example paging
         * @enum {string}
         */
        ReadinessCheckName: "duplicates" | "paging" | "nothing-left-behind" | "validation-failed" | "checksum-and-length" | "system-error" | "lost-answer" | "downloads" | "expired-upload" | "rate-limits" | "faults-and-cadence" | "deferred-official-search";
        /** @description A readiness run without its checks' evidence (as a list shows it). */
        ReadinessRunSummary: {
            run_id: components["schemas"]["Uuid"];
            business_unit_id: components["schemas"]["Uuid"];
            status: components["schemas"]["ReadinessRunStatus"];
            verdict: components["schemas"]["ReadinessVerdict"];
            /** @description When the run started, by the business unit's sandbox clock. */
            started_at: components["schemas"]["MillisecondDateTime"];
            /** @description When the run ends, by the business unit's sandbox clock (`started_at` plus `time_limit_seconds`). */
            deadline: components["schemas"]["MillisecondDateTime"];
            /** @description When the run finished or was cancelled, by the unit's clock; null while it runs. */
            ended_at: components["schemas"]["MillisecondDateTime"] | null;
            time_limit_seconds: number;
            /** @description Each check run, with its verdict, one per check (`maxItems` bounds the answer, not the number of checks). */
            checks: {
                name: components["schemas"]["ReadinessCheckName"];
                verdict: components["schemas"]["ReadinessVerdict"];
            }[];
        };
        /** @description At most 100 readiness runs, newest first. */
        ReadinessRunList: {
            data: components["schemas"]["ReadinessRunSummary"][];
        };
        /** @description What a readiness run examines and for how long. The body may be omitted (every check, one hour). */
        ReadinessRunRequest: {
            /**
             * @description The business unit examined. Required with the admin token; with a unit token it may be omitted (the token's own
             *     unit), and another unit's id is not found (404, code `404-01`).
             */
            business_unit_id?: components["schemas"]["Uuid"];
            /**
             * @description The checks to run, each at most once; every check when omitted. An unknown name is refused (400, code
             *     `400-02`). `maxItems` bounds the request, not the number of checks (that is `ReadinessCheckName`).
             */
            checks?: components["schemas"]["ReadinessCheckName"][];
            /**
             * @description How long the run lasts, in seconds of the business unit's own sandbox clock: from one minute to seven days
             *     (604800), one hour by default. The run ends when the unit's clock reaches its `deadline`, so a test can end it
             *     at once by advancing the unit's clock (`POST /sandbox/v1/clock/advance` with the unit's token). A value out of
             *     range is refused (400, code `400-02`).
             * @default 3600
             */
            time_limit_seconds?: number;
        };
        /**
         * @description One request of the business unit's software to the registry interface, as the gateway observed it during a run.
         *     Never kept: request bodies (but for the ids of an acknowledge call and the case of a submission), credentials,
         *     headers other than
         *     `Idempotency-Key`; query parameters whose name suggests a secret or a signature are redacted. The requests to a
         *     signed upload or download address carry no credentials: they are the unit's whose document they name.
         */
        ReadinessObservation: {
            /** @description The request's place among the run's observations, from 1. */
            sequence: number;
            /** @description When it was answered, by the business unit's sandbox clock. */
            at: components["schemas"]["MillisecondDateTime"];
            /** @enum {string} */
            method: "GET" | "POST" | "PUT" | "DELETE";
            /**
             * @description The `operationId` of the registry interface's operation that answered it.
             * @example listNotificationsV1
             */
            operation_id: string;
            /** @description The query parameters sent (each value cut to 200 characters; a secret or signature as `[redacted]`). */
            query: {
                [key: string]: string;
            };
            /**
             * @description The HTTP status answered. 444 (after nginx's code for a connection closed without a response) is never sent: it
             *     records an answer the sandbox dropped on purpose for the `lost-answer` check. The request's work was done (the
             *     application stored), then the connection was closed before a byte of the answer was written.
             */
            status: number;
            /** @description Whether the request carried an `Authorization` header. */
            credentials_sent: boolean;
            /** @description For an acknowledge call, the ids it sent (the first 100); otherwise null. */
            acknowledged_ids: string[] | null;
            /** @description For an acknowledge call, how many ids it sent (more than 100 is refused with 400); otherwise null. */
            acknowledged_count: number | null;
            /** @description The `Idempotency-Key` header sent, or null. */
            idempotency_key: string | null;
            /**
             * @description The path parameters of the operation (which application, document or download), each value cut to 200
             *     characters.
             */
            path_parameters: {
                [key: string]: string;
            };
            /**
             * @description The answer's `Retry-After`, in seconds (a 429, a 503, the 202 of a deferred official search), or null when it
             *     had none. A check of pacing compares it with when the software's next attempt came.
             */
            retry_after: number | null;
            /**
             * @description For an error answer (status 400 or more), its code: the problem's `code` (`403-01`, `409-01`, ...) or, in the
             *     registry's envelope, the first item's (`BG40005`, `OC036`, ...); otherwise null. The evidence names the mistake
             *     with it.
             */
            answer_code: string | null;
            /**
             * @description For an error answer, its detail (the problem's `detail`, or the envelope's first item's), cut to 200 characters:
             *     which member or header was wrong. Otherwise null.
             */
            answer_detail: string | null;
            /**
             * @description For a submission (`submitApplication`), the case it is for: its `type`, its `customer_reference` and its title
             *     numbers (sorted, upper case), the members by which a resubmission is the same application; otherwise null.
             *     Nothing else of the body is kept.
             */
            submission_case: {
                type: string;
                customer_reference: string;
                title_numbers: string[];
            } | null;
        };
        /** @description One check of a readiness run: its verdict, the rule it checks, what to do to pass it, and the evidence. */
        ReadinessCheckResult: {
            name: components["schemas"]["ReadinessCheckName"];
            verdict: components["schemas"]["ReadinessVerdict"];
            /** @description The rule the check is tied to (the check name's entry in `x-enumDescriptions`). */
            rule: string;
            /** @description What correct software does, in a few sentences. */
            how_to_pass: string;
            /** @description What the software must do now for the check to be decided, while the run is running; otherwise null. */
            instructions: string | null;
            /** @description Why the verdict is what it is. */
            evidence: {
                /** @description What the check expected the software to do. */
                expected: string;
                /** @description What the observations show, in one or two sentences. */
                found: string;
                /** @description The observed requests that bear on the verdict (at most 100, oldest first). */
                requests: components["schemas"]["ReadinessObservation"][];
            };
        };
        /** @description A readiness run with every check's verdict, evidence and instructions. */
        ReadinessRun: {
            run_id: components["schemas"]["Uuid"];
            business_unit_id: components["schemas"]["Uuid"];
            status: components["schemas"]["ReadinessRunStatus"];
            verdict: components["schemas"]["ReadinessVerdict"];
            /** @description When the run started, by the business unit's sandbox clock. */
            started_at: components["schemas"]["MillisecondDateTime"];
            /** @description When the run ends, by the business unit's sandbox clock (`started_at` plus `time_limit_seconds`). */
            deadline: components["schemas"]["MillisecondDateTime"];
            /** @description When the run finished or was cancelled, by the unit's clock; null while it runs. */
            ended_at: components["schemas"]["MillisecondDateTime"] | null;
            time_limit_seconds: number;
            /**
             * @description How many requests of the unit's software were observed during the run, and how many were not kept because the
             *     run already held 10,000 (the checks then judge from the first 10,000).
             */
            observations: {
                recorded: number;
                dropped: number;
            };
            checks: components["schemas"]["ReadinessCheckResult"][];
        };
        /**
         * @description A readiness run's evidence bundle: the run as `getReadinessRun` answers it, and every observation the run kept
         *     (not only the first 100 of each check that the run's evidence holds), oldest first, with a SHA-256 of the rest.
         *
         *     `sha256` is the lowercase hexadecimal SHA-256 of the UTF-8 bytes of the canonical JSON (RFC 8785, JCS: members
         *     sorted by name, no whitespace, strings and numbers written as JavaScript's `JSON.stringify` writes them) of the
         *     bundle without its `sha256` member. It covers every other member, so whitespace and member order may change (a
         *     file pretty-printed again still verifies) but no value, and no member may be added or removed. It proves that a
         *     bundle is whole and unchanged since the gateway answered it, not who made it: it is a checksum, not a signature.
         */
        ReadinessEvidence: {
            /** @description The SHA-256 of the canonical JSON of the bundle without this member, in lowercase hexadecimal. */
            sha256: string;
            run: components["schemas"]["ReadinessRun"];
            /**
             * @description Every observation the run kept, oldest first (`sequence` 1, 2, ...): `run.observations.recorded` of them once
             *     the run ended; those over 10,000 were not kept (`run.observations.dropped` counts them).
             */
            observations: components["schemas"]["ReadinessObservation"][];
        };
    };
    responses: {
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
        /**
         * @description The bearer token is a business unit's sandbox token, and this operation is the admin token's alone (code
         *     `403-05`). Nothing was changed.
         */
        SandboxAdminOnly: {
            headers: {
                "X-Request-Id": components["headers"]["RequestId"];
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
        /** @description No such resource for the caller's business unit (another unit's resources are reported the same way). */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /** @description The readiness run's id (`run_id`, answered when it was started). */
        ReadinessRunId: components["schemas"]["Uuid"];
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
    createBusinessUnit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SandboxBusinessUnitRequest"];
            };
        };
        responses: {
            /** @description The business unit and its user were created. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxBusinessUnit"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["SandboxAdminOnly"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    rotateBusinessUnitToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `business_unit_id` answered when the business unit was created. */
                business_unit_id: components["schemas"]["Uuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new token. The one it replaces no longer works. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxUnitToken"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The time on the gateway's clock. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxClock"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    setClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SandboxClockSetRequest"];
            };
        };
        responses: {
            /** @description The clock was set; the answer is its new time. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxClock"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    advanceClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SandboxClockAdvanceRequest"];
            };
        };
        responses: {
            /** @description The clock moved forward; the answer is its new time. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxClock"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDayList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The state of the day list. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxDayList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    setDayList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SandboxDayListRequest"];
            };
        };
        responses: {
            /** @description The day list's state after the change. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxDayList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["SandboxAdminOnly"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    transitionApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `application_request_id` answered when the application was submitted, in any business unit. */
                id: components["schemas"]["Uuid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SandboxTransitionRequest"];
            };
        };
        responses: {
            /** @description The transition was applied; the answer is the application's new status and the notifications emitted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxTransitionResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            /**
             * @description The transition is not allowed from the application's current status, or the requested
             *     `registry_reference` is held by another application (code `409-03`). Nothing was changed.
             */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    despatchCorrespondence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `application_request_id` answered when the application was submitted, in any business unit. */
                id: components["schemas"]["Uuid"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SandboxCorrespondenceRequest"];
            };
        };
        responses: {
            /** @description The correspondence was despatched; the answer lists its documents and the notifications emitted. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxCorrespondenceResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            /** @description The application has no registry reference yet, or will never have one (code `409-03`). Nothing was changed. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The current settings. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxSettings"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SandboxSettingsUpdate"];
            };
        };
        responses: {
            /** @description The settings after the change. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxSettings"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    scheduleSystemErrors: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SandboxSystemErrorRequest"];
            };
        };
        responses: {
            /** @description The submissions now due to end in SYSTEM_ERROR. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxSystemErrors"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    resetSandbox: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sandbox was reset. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listAuditEntries: {
        parameters: {
            query?: {
                /**
                 * @description Only entries recorded after the one with this `sequence` (the last `sequence` of the previous page).
                 * @example 42
                 */
                after?: number;
                /** @description Most entries in the answer. At most 100. */
                limit?: number;
                /**
                 * @description Only entries of this operation (its `operationId`, e.g. `resetSandbox`).
                 * @example resetSandbox
                 */
                operation_id?: string;
                /** @description Only entries of this kind of actor (`unknown`, for example, lists the refused credentials). */
                actor?: components["schemas"]["SandboxAuditActorKind"];
                /** @description Only entries of actions made with this business unit's token. */
                business_unit_id?: components["schemas"]["Uuid"];
                /** @description Only entries recorded after this instant by the wall clock (exclusive). */
                recorded_after?: components["schemas"]["SandboxDateTime"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entries that match, oldest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxAuditList"];
                };
            };
            /**
             * @description A query parameter fails its schema (code `400-02`, with `errors`), or one that is not listed here was
             *     sent (code `400-04`). Nothing is listed.
             */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listReadinessRuns: {
        parameters: {
            query?: {
                /** @description Only this business unit's runs (with a unit token, another unit's id lists nothing). */
                business_unit_id?: components["schemas"]["Uuid"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The runs, newest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadinessRunList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    startReadinessRun: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ReadinessRunRequest"];
            };
        };
        responses: {
            /** @description The run started; the stimuli are raised. Its checks are `running`. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadinessRun"];
                };
            };
            /**
             * @description A value fails its schema (code `400-02`, with `errors`): an unknown check name, a time limit out of range, a
             *     missing `business_unit_id` with the admin token. Or the body is not JSON (`400-03`). Nothing was started.
             */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            /** @description The business unit has a running readiness run already (code `409-05`). Nothing was started. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getReadinessRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The readiness run's id (`run_id`, answered when it was started). */
                run_id: components["parameters"]["ReadinessRunId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadinessRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cancelReadinessRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The readiness run's id (`run_id`, answered when it was started). */
                run_id: components["parameters"]["ReadinessRunId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run, ended. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadinessRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getReadinessRunJunit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The readiness run's id (`run_id`, answered when it was started). */
                run_id: components["parameters"]["ReadinessRunId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report (UTF-8). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/xml": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
        };
    };
    getReadinessRunHtml: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The readiness run's id (`run_id`, answered when it was started). */
                run_id: components["parameters"]["ReadinessRunId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report (UTF-8). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
        };
    };
    getReadinessRunEvidence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The readiness run's id (`run_id`, answered when it was started). */
                run_id: components["parameters"]["ReadinessRunId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The evidence bundle. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadinessEvidence"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
