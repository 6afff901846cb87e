// Generated from spec/dist/*.dereferenced.json by spec/scripts/generate-library.mjs. Do not edit.

/** Largest document the registry takes, in bytes (UploadUrlRequest `data.file_length` maximum). */
export const MAX_DOCUMENT_BYTES = 41943040 as const;

/** Longest message to a pending application (AttachMessageRequest `data.message_text` maxLength). */
export const MAX_MESSAGE_LENGTH = 4034 as const;

/** Deepest nesting of arrays and objects a JSON request body may have (`x-lrg-json-body-limits` max_depth). */
export const MAX_JSON_DEPTH = 32 as const;

/** Largest JSON request body, in bytes (`x-lrg-json-body-limits` max_bytes): a larger one is refused 413-01. */
export const MAX_JSON_BODY_BYTES = 1048576 as const;

/** Most notifications one page lists (NotificationListV1 `data` maxItems). */
export const NOTIFICATION_PAGE_SIZE = 100 as const;

/** Most notification ids one acknowledge call takes (AcknowledgeRequest `data` maxItems). */
export const MAX_ACKNOWLEDGE_IDS = 100 as const;

/** Most system errors that may wait for one key (sandbox SandboxSystemErrors `pending` maximum). */
export const MAX_PENDING_SYSTEM_ERRORS = 1000000 as const;

/** Most entries one page of the control plane's audit trail lists (sandbox SandboxAuditList `data` maxItems). */
export const AUDIT_PAGE_SIZE = 100 as const;

/** The bounds of readiness runs (sandbox ReadinessRunList, ReadinessRunRequest and ReadinessObservation): most runs a list answers, the default time limit, most observations a run keeps (`sequence` maximum), and what one observation keeps of a request. */
export const READINESS_BOUNDS = {
  "runsListed": 100,
  "defaultTimeLimitSeconds": 3600,
  "observationsKept": 10000,
  "parametersKept": 20,
  "valueLength": 200,
  "acknowledgedIdsKept": 100,
  "idempotencyKeyLength": 255,
  "titleNumbersKept": 100
} as const;

/** The string enums of the component schemas of both documents, by schema name. */
export const enums = {
  "OfficialCopiesAvailabilityCode": [
    "IMMEDIATE",
    "MANUAL",
    "UNAVAILABLE"
  ],
  "ApplicationTypeCode": [
    "REGISTER_UPDATE",
    "TRANSFER_OF_PART",
    "DISPOSITIONARY_FIRST_LEASE",
    "REMOVE_JP1"
  ],
  "TransactionTypeCode": [
    "ADV1",
    "ADV1NT2",
    "ADV1S12",
    "ADV2",
    "AGN",
    "AML",
    "APLC",
    "APLCO",
    "APLM",
    "APR",
    "APT",
    "ARC",
    "ASSTTP",
    "ASTC",
    "ASTT",
    "ATP",
    "ATR",
    "AUN",
    "BKN",
    "BKR",
    "C",
    "CADV",
    "CAG",
    "CANI",
    "CANR",
    "CANU",
    "CBKN",
    "CBKR",
    "CCT",
    "CH2",
    "CH3",
    "CHOA",
    "CHOU",
    "CHR",
    "CN",
    "CNC",
    "CNL",
    "COA",
    "COAC",
    "CON",
    "COP",
    "CPD",
    "CPVK",
    "CPVU",
    "CTD",
    "CUR",
    "DB",
    "DCLN",
    "DCLV",
    "DEB",
    "DFL1",
    "DFL3",
    "DFL4",
    "DFL5",
    "DFL6",
    "DFT",
    "DIS",
    "DJP",
    "DL",
    "DM",
    "DMR",
    "DOG",
    "DP",
    "DPR",
    "DSP",
    "DSS",
    "DTL",
    "EX1",
    "EX3",
    "EXR",
    "HR",
    "JP1",
    "LCATCO",
    "LCBD",
    "LCBET",
    "LCBN",
    "LCF",
    "LCMRE",
    "LCOE",
    "LCOF",
    "LCSD",
    "LCSDM",
    "LCSDWT",
    "LCSDMWT",
    "LCSOL",
    "LCSOLM",
    "MDR",
    "NAOA",
    "NCT",
    "NDC",
    "NFR",
    "NOE",
    "NOL",
    "NOPSC",
    "NPR",
    "NRT",
    "PC",
    "PER",
    "PRO",
    "RADV",
    "RC",
    "RE",
    "RFN",
    "RHR",
    "ROCA",
    "ROCC",
    "ROCU",
    "RORBAP",
    "RNT",
    "ROE",
    "RRC",
    "RRD",
    "RTBAP",
    "RTM",
    "RUN",
    "RXL",
    "RXN",
    "RXS",
    "SBC",
    "SHO",
    "SJT",
    "SOT",
    "STVC",
    "STVL",
    "T",
    "TNV",
    "TNVTP",
    "TOC",
    "TOSNV",
    "TOSNVTP",
    "TOSTP",
    "TOSV",
    "TPS",
    "TPSTP",
    "TRC",
    "TRM",
    "TSCNV",
    "TSCNVTP",
    "TSCTP",
    "TSCV",
    "TTP",
    "TVR",
    "TVRTP",
    "UNN",
    "UPT",
    "VC",
    "VLAN",
    "VLAP",
    "VLUN",
    "VO",
    "VOC",
    "VOCA",
    "VOCU",
    "VOE",
    "VOEA",
    "VOEU",
    "VRC",
    "WCT",
    "WDR"
  ],
  "DocumentTypeCode": [
    "ABSTRACT",
    "ACKAPU",
    "ADJAR",
    "ADJREVU",
    "ADMIN_LTRS",
    "ADV1",
    "ADV2",
    "AGREEMENT",
    "AMS1",
    "AN1",
    "AP1",
    "APPL_FRM",
    "APPOINTMENT_OF_TRUSTEE",
    "AS1",
    "AS2",
    "AS3",
    "ASSENT",
    "ASSIGNMENT",
    "BIRTH_CERT",
    "BOUND_PLAN",
    "CC",
    "CCD",
    "CERT_CON_CH",
    "CERT_DEATH",
    "CERT_REG_CH",
    "CERT_RED_EX",
    "CERT_S89",
    "CH1",
    "CH2",
    "CH3",
    "CHARGE",
    "CHARG_ORD",
    "CIVIL_CERT",
    "CM2",
    "CM5",
    "CM6",
    "CN1",
    "CNFRM_DTMN_LTA_LGHA",
    "CNFRM_NO_DEED_SUR",
    "CNFRM_NO_LTA_LGHA",
    "CNSNT_ADMIN_COURT",
    "COMP_DOC",
    "CONSENT",
    "CONST_COMP",
    "CONTR_RES",
    "CONV_CERT",
    "CONV_CERT_DEATH",
    "CONVEYANCE",
    "COR_CERT",
    "CORRES",
    "COSR",
    "COURT_ORD",
    "CRALIQ",
    "CRED_DEC",
    "CRED_RES",
    "CRT_FORM_7",
    "CRWALIQ",
    "DB",
    "DEATH_CERT",
    "DEC_AB_NULL_MARR",
    "DEED",
    "DEED_POLL",
    "DEED_REG_DIS",
    "DEED_SUR",
    "DISCHARGE",
    "DJP",
    "DL",
    "DOP",
    "DRIVING_LICENCE",
    "DS1",
    "DS2",
    "DS3",
    "DS3_SHORT",
    "EOB",
    "EOL",
    "EVD_NO_RENEW",
    "EVIDENCE",
    "EV_OV_NAME_CHANGE",
    "EX1",
    "EX1A",
    "EX3",
    "FORM_600",
    "FORM_600CH",
    "FORM_DI",
    "FORM_JO",
    "FR1",
    "GENDER_CERT",
    "GVD",
    "HR1",
    "HR2",
    "HR4",
    "ID1",
    "ID2",
    "ID3",
    "ID4",
    "ID5",
    "ID_EV",
    "ID_FRM",
    "INDENTURE",
    "JP1",
    "K17_OR_K18",
    "K20",
    "K22",
    "K3",
    "K4",
    "LEASE",
    "LICENCE",
    "LIQ01",
    "LIQ_CERT_1",
    "LIQ_CERT_2",
    "LIQ_CERT_3",
    "LNDLD_CNSNT",
    "LONP",
    "LR_CORRES",
    "LTT",
    "MARR_CERT",
    "MEMO",
    "MORD",
    "MRTG_DEED",
    "NOD",
    "ORD_DISS_NULL_CP",
    "PASSPORT",
    "PLAN",
    "POA",
    "PROBATE",
    "PSS1",
    "REVERS_INT",
    "RN",
    "RX1",
    "RX2",
    "RX3",
    "RX4",
    "RXC",
    "SC",
    "SDLT",
    "SEV",
    "SHRF_RTN",
    "SIDE_LTR",
    "SOT",
    "SSALIQ",
    "STAT_DEC",
    "SUB_CHARGE",
    "TP1",
    "TP2",
    "TR1",
    "TR2",
    "TR4",
    "TRANSFER",
    "TRUSTEE_RESOLUTION",
    "UN1",
    "UN2",
    "UN3",
    "UN4",
    "UT1",
    "VAR_CHARGE",
    "VAR_COV",
    "VAR_EAS",
    "VAR_LEASE",
    "VESTING_ORDER",
    "WCT",
    "WINDING_UP",
    "WIT_STATE",
    "DEBENTURE",
    "RXCD",
    "TR5"
  ],
  "ApplicationStatus": [
    "VALIDATING",
    "VALIDATION_FAILED",
    "ACCEPTED_AWAITING_PRIORITY",
    "ACCEPTED_PRIORITY_PROTECTED",
    "SYSTEM_ERROR",
    "COMPLETED",
    "CANCELLED"
  ],
  "CorrespondenceDocumentTypeCode": [
    "ATP",
    "CAN",
    "CMT",
    "CRD",
    "DSR",
    "ECM",
    "ECR",
    "EC6",
    "LRP",
    "LTR",
    "OCD",
    "OCP",
    "OCR",
    "PCD",
    "RCS",
    "REG",
    "ROA",
    "TID"
  ],
  "NotificationStatus": [
    "NEW",
    "ACKNOWLEDGED"
  ],
  "NotificationTypeV0": [
    "APPLICATION_ACCEPTED_ON_DAY_LIST",
    "APPLICATION_ACCEPTED_QUEUED_FOR_DAY_LIST",
    "APPLICATION_VALIDATION_FAILED",
    "SYSTEM_ERROR",
    "APPLICATION_CANCELLED",
    "APPLICATION_COMPLETED",
    "APPLICATION_CORRESPONDENCE_DESPATCHED"
  ],
  "NotificationTypeV1": [
    "application.accepted-priority-protected",
    "application.accepted-priority-pending",
    "application.validation-failed",
    "application.error",
    "application.correspondence-despatched",
    "application.attachment-success",
    "application.attachment-failed",
    "application.message-success",
    "application.message-failed",
    "application.cancelled",
    "application.completed"
  ],
  "SandboxProcessing": [
    "automatic",
    "manual"
  ],
  "SandboxServiceHours": [
    "enforced",
    "always-open"
  ],
  "SandboxAuditActorKind": [
    "admin",
    "unit",
    "unknown"
  ],
  "ReadinessRunStatus": [
    "running",
    "finished",
    "cancelled"
  ],
  "ReadinessVerdict": [
    "passed",
    "failed",
    "not_exercised",
    "running"
  ],
  "ReadinessCheckName": [
    "duplicates",
    "paging",
    "nothing-left-behind",
    "validation-failed",
    "checksum-and-length",
    "system-error",
    "lost-answer",
    "downloads",
    "expired-upload",
    "rate-limits",
    "faults-and-cadence",
    "deferred-official-search"
  ]
} as const;

/** Every application status, in the spec's order. */
export const APPLICATION_STATUSES = [
  "VALIDATING",
  "VALIDATION_FAILED",
  "ACCEPTED_AWAITING_PRIORITY",
  "ACCEPTED_PRIORITY_PROTECTED",
  "SYSTEM_ERROR",
  "COMPLETED",
  "CANCELLED"
] as const;

/** An application status. */
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/** The problem catalogue (`x-lrg-problem-codes`, from components/problem-codes.yaml): code → status, title, when. */
export const problemCatalogue = {
  "400-01": {
    "status": 400,
    "title": "Bad Request",
    "when": "A notifications list request whose created_after is later than its created_before."
  },
  "400-02": {
    "status": 400,
    "title": "Bad Request",
    "when": "A path, query, header or body value does not match the operation's schema (wrong type, pattern, length, enum, missing required member). The `errors` array names each failing member with a JSON pointer."
  },
  "400-03": {
    "status": 400,
    "title": "Bad Request",
    "when": "The request body is not well-formed JSON."
  },
  "400-04": {
    "status": 400,
    "title": "Bad Request",
    "when": "A query parameter that the operation does not define was sent."
  },
  "400-05": {
    "status": 400,
    "title": "Bad Request",
    "when": "An upload body ended before Content-Length bytes arrived."
  },
  "401-01": {
    "status": 401,
    "title": "Unauthorized",
    "when": "Credentials are missing, malformed or wrong (HTTP Basic, or the sandbox bearer token). Which of these applies is not disclosed."
  },
  "403-01": {
    "status": 403,
    "title": "Forbidden",
    "when": "Signature verification failure on an upload. The signature does not verify, the upload address was altered, Content-Length or X-Provider-Checksum-Sha256 is missing or differs from the values given at generation, or the bytes' SHA-256 differs."
  },
  "403-02": {
    "status": 403,
    "title": "Forbidden",
    "when": "The upload started more than ten minutes after its address was generated."
  },
  "403-03": {
    "status": 403,
    "title": "Forbidden",
    "when": "A title enquiry was made without a client certificate signed by the gateway's client CA, over plain HTTP or HTTPS, while the sandbox setting require_client_certificate is true (the default). The registry requires mutual TLS on these services. Never answered as 403-03 itself; the title enquiries answer in the registry's envelopes, with the registry's code BG40005."
  },
  "403-04": {
    "status": 403,
    "title": "Forbidden",
    "when": "A download address is expired or its signature does not verify."
  },
  "404-01": {
    "status": 404,
    "title": "Not Found",
    "when": "The resource does not exist or belongs to another business unit (the two are not distinguished)."
  },
  "404-02": {
    "status": 404,
    "title": "Not Found",
    "when": "No route answers this method and path."
  },
  "409-01": {
    "status": 409,
    "title": "Conflict",
    "when": "An Idempotency-Key was reused with a different request body."
  },
  "409-02": {
    "status": 409,
    "title": "Conflict",
    "when": "A title enquiry reused a message_id already submitted by the same user (the registry's BG40011)."
  },
  "409-03": {
    "status": 409,
    "title": "Conflict",
    "when": "A requested change does not fit the application's current state (a transition not allowed from its status, correspondence before it has a registry reference, or a registry reference already held by another application)."
  },
  "409-04": {
    "status": 409,
    "title": "Conflict",
    "when": "An upload address was used already; each address accepts one upload."
  },
  "413-01": {
    "status": 413,
    "title": "Content Too Large",
    "when": "The body is larger than the operation allows (41943040 bytes for an upload; 1 MiB for JSON bodies)."
  },
  "415-01": {
    "status": 415,
    "title": "Unsupported Media Type",
    "when": "The request body's Content-Type is not one the operation accepts."
  },
  "422-01": {
    "status": 422,
    "title": "Unprocessable Content",
    "when": "A title enquiry breaks a business rule of the register. The registry's own rule code (for example bg.title.closed) is given in `rule`."
  },
  "423-01": {
    "status": 423,
    "title": "Locked",
    "when": "Registered proprietor names were asked for outside the service hours, 06:30 to 23:00 London time by the gateway's clock (the registry's BG50003, given in `rule`). Retry after the number of seconds in Retry-After. The sandbox setting service_hours turns this off."
  },
  "429-01": {
    "status": 429,
    "title": "Too Many Requests",
    "when": "The caller exceeded its rate limit (or a readiness run's rate-limits check answered its first rate-limited look-up so). Retry after the number of seconds in Retry-After. On the title look-ups the registry's code BG40006 is given in `rule`."
  },
  "500-01": {
    "status": 500,
    "title": "Internal Server Error",
    "when": "An unexpected fault in the gateway. Never answered for bad input."
  },
  "503-01": {
    "status": 503,
    "title": "Service Unavailable",
    "when": "The gateway is shutting down, or the sandbox's fault injection answered for it (the `error_rate` setting, or a readiness run's faults-and-cadence check on the notification list). Retry after the number of seconds in Retry-After."
  },
  "503-02": {
    "status": 503,
    "title": "Service Unavailable",
    "when": "The gateway's store cannot be reached or failed to read or write (a database restart or failover, a lost connection, an I/O error). Nothing was changed by the request, or what it changed is kept and a retry with the same Idempotency-Key finds it. Retry after the number of seconds in Retry-After; the gateway recovers by itself once the store is back."
  },
  "503-03": {
    "status": 503,
    "title": "Service Unavailable",
    "when": "The gateway's store cannot accept writes because its disk is full or read-only (or the database refuses writes, as a standby does). Nothing was changed; an upload's address stays usable. Retry after the number of seconds in Retry-After, once the operator has made room."
  },
  "400-06": {
    "status": 400,
    "title": "Bad Request",
    "when": "A document or message was attached to an application that is not pending (COMPLETED, CANCELLED, VALIDATION_FAILED or SYSTEM_ERROR); the registry's OC036."
  },
  "403-05": {
    "status": 403,
    "title": "Forbidden",
    "when": "A business unit's sandbox token asked for an operation of the control plane that only the admin token may perform (creating a business unit, opening or closing the registry-wide day list). A unit token acts on its own business unit only."
  },
  "429-02": {
    "status": 429,
    "title": "Too Many Requests",
    "when": "A login was refused before its password was checked, because the failed-login budget of the client address or of the username is spent (see the basicAuth security scheme), or because too many password checks are waiting. Retry after the number of seconds in Retry-After. On the title enquiries the registry's rate-limit code BG40006 is written in the envelope."
  },
  "409-05": {
    "status": 409,
    "title": "Conflict",
    "when": "A readiness run was started for a business unit that has a running one already (one run at a time per unit). Cancel it, or wait until the unit's clock reaches its deadline."
  }
} as const;

/** A problem code of the catalogue. */
export type ProblemCode = keyof typeof problemCatalogue;

/** The `type` URI of every problem, less its code (Problem `type`). */
export const PROBLEM_TYPE_BASE = "https://land-registration-gateway.example/problems/" as const;

/** The `type` URI of the problem with this code. */
export const problemTypeOf = (code: string): string => `${PROBLEM_TYPE_BASE}${code}`;

/** One allowed move of an application between statuses (an entry of ApplicationStatus `x-lrg-transitions`). */
export interface Transition {
  from: ApplicationStatus;
  to: ApplicationStatus;
  trigger: string;
  source: string;
  notifications: { v1: string; v0: string };
}

/** The application state machine's transitions, in the spec's order. */
export const transitions: readonly Transition[] = [
  {
    "from": "VALIDATING",
    "to": "VALIDATION_FAILED",
    "trigger": "validation finds errors",
    "source": "seed",
    "notifications": {
      "v1": "application.validation-failed",
      "v0": "APPLICATION_VALIDATION_FAILED"
    }
  },
  {
    "from": "VALIDATING",
    "to": "SYSTEM_ERROR",
    "trigger": "a system error in the registry",
    "source": "seed",
    "notifications": {
      "v1": "application.error",
      "v0": "SYSTEM_ERROR"
    }
  },
  {
    "from": "VALIDATING",
    "to": "ACCEPTED_AWAITING_PRIORITY",
    "trigger": "validation passes while the day list is closed",
    "source": "seed",
    "notifications": {
      "v1": "application.accepted-priority-pending",
      "v0": "APPLICATION_ACCEPTED_QUEUED_FOR_DAY_LIST"
    }
  },
  {
    "from": "VALIDATING",
    "to": "ACCEPTED_PRIORITY_PROTECTED",
    "trigger": "validation passes while the day list is open",
    "source": "seed",
    "notifications": {
      "v1": "application.accepted-priority-protected",
      "v0": "APPLICATION_ACCEPTED_ON_DAY_LIST"
    }
  },
  {
    "from": "ACCEPTED_AWAITING_PRIORITY",
    "to": "ACCEPTED_PRIORITY_PROTECTED",
    "trigger": "the day list reopens",
    "source": "seed",
    "notifications": {
      "v1": "application.accepted-priority-protected",
      "v0": "APPLICATION_ACCEPTED_ON_DAY_LIST"
    }
  },
  {
    "from": "ACCEPTED_PRIORITY_PROTECTED",
    "to": "COMPLETED",
    "trigger": "the registry completes the application",
    "source": "design",
    "notifications": {
      "v1": "application.completed",
      "v0": "APPLICATION_COMPLETED"
    }
  },
  {
    "from": "ACCEPTED_PRIORITY_PROTECTED",
    "to": "CANCELLED",
    "trigger": "the registry cancels the application",
    "source": "design",
    "notifications": {
      "v1": "application.cancelled",
      "v0": "APPLICATION_CANCELLED"
    }
  }
];

/** Extra prefixes under which a path also answers: the notification services under /api, as the registry's test stubs. */
export const pathAliases: Readonly<Record<string, readonly string[]>> = {
  "/v0/notifications": [
    "/api"
  ],
  "/v0/notifications/acknowledge": [
    "/api"
  ],
  "/v1/notifications": [
    "/api"
  ],
  "/v1/notifications/acknowledge": [
    "/api"
  ]
};

/** The registry's rate limits (`x-lrg-rate-limit`), by operationId: requests a minute, counted per user or per business unit. */
export const rateLimits = {
  "getOfficialCopiesAvailability": {
    "requestsPerMinute": 75,
    "per": "business-unit"
  },
  "getRegisteredProprietorNames": {
    "requestsPerMinute": 6,
    "per": "user"
  }
} as const;

/** The failed-login budgets of HTTP Basic (`x-lrg-failed-login-limit` on basicAuth): failures a bucket holds and refills a minute, per client address and per username. */
export const failedLoginLimit = {
  "perAddress": {
    "failures": 30,
    "refillPerMinute": 10
  },
  "perUsername": {
    "failures": 60,
    "refillPerMinute": 20
  }
} as const;

/** Where JSON bodies hold personal data (members marked `x-lrg-personal-data`): paths of member names from the body's root, `*` for a key of a map; array items share their array's path. */
export const PERSONAL_DATA_PATHS: readonly (readonly string[])[] = [
  [
    "addresses"
  ],
  [
    "application_lodger",
    "email"
  ],
  [
    "application_lodger",
    "telephone"
  ],
  [
    "contact",
    "name"
  ],
  [
    "contact",
    "telephone_number"
  ],
  [
    "data",
    "official_search_data",
    "applicants"
  ],
  [
    "data",
    "official_search_data",
    "proprietor_names"
  ],
  [
    "data",
    "official_search_data",
    "result_entries",
    "advisory_entries",
    "name_mismatch",
    "registered_proprietor_names"
  ],
  [
    "data",
    "proprietors",
    "decoration"
  ],
  [
    "data",
    "proprietors",
    "forenames"
  ],
  [
    "data",
    "proprietors",
    "proprietor_name"
  ],
  [
    "data",
    "proprietors",
    "surname"
  ],
  [
    "data",
    "proprietors",
    "title"
  ],
  [
    "official_search_of_whole_with_priority",
    "applicant_party"
  ],
  [
    "official_search_of_whole_with_priority",
    "registered_proprietors_details_or_applicants_for_first_registration"
  ],
  [
    "parties",
    "*",
    "name"
  ]
];

/** The Markdown table of scenario titles of the simulated register (officialSearchOfWhole's description). */
export const SCENARIO_TITLES_TABLE = "| Title | Register | Official search answers |\n|---|---|---|\n| ZZ100001 | Clean registered title, proprietors ALEX EXAMPLE and SAM EXAMPLE | 201, no changes, no advisory entries |\n| ZZ100002 | Registered to JORDAN EXAMPLE; the names given never match | 422 `bg.state.nonamematch`; with `NAME_MISMATCH_ON_REGISTER`, 201 with a `name_mismatch` advisory entry and a warning |\n| ZZ100003 | New edition dated 2025-03-20; a commonhold unit whose common parts are ZZ100013 | 201 with `has_register_changed: true` (for a `search_from_date` before the edition) and a `commonhold_title` advisory entry |\n| ZZ100004 | Fee 6.00 GBP | 422 `bg.fee.feeMismatch` when `expected_price` is absent or its gross amount is below 6.00; with `ACTUAL_FEE_EXCEEDS_EXPECTED_FEE`, 201 charging 6.00 with a warning |\n| ZZ100005 | An official search of part has priority | 422 `bg.title.pendingsearchofpart`; with `PENDING_SEARCHES_OF_PART`, 201 with a warning |\n| ZZ100006 | Closed, continued under ZZ100012 | 422 `bg.title.closed` |\n| ZZ100007 | Caution title | 422 `bg.title.caution` |\n| ZZ100008 | Developer's estate title of EXAMPLE HOMES LIMITED | 422 `bg.title.developertitle`; with `DEVELOPER_TITLE`, 201 with a warning |\n| ZZ100009 | Needs manual processing | 202 `BG20001`; the result is ready 15 minutes after receipt |\n| ZZ100010 | Not on the register | 422 `bg.title.invalid` |\n| ZZ100011 | Pending first registration by EXAMPLE ESTATES LIMITED | 201; `search_from_date` may be omitted |" as const;
