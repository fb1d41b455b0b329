/**
 * The application's (Bank of Sirius's) configuration keys, its one group "Application (Bank of Sirius)": where it is
 * served, its images, its databases, the demo login and the three keys of the Postgres exporter chart it installs,
 * with MARA's `sirius:*` keys as aliases. Declared with the key machinery (config/keySpec.ts) and spread into the key
 * table (config/keys.ts) where they stood; their rules are settings.ts's.
 */
import { DEFAULTS, PATTERNS } from "../../contracts";
import { chartKeys, spec } from "../../config/keySpec";
import { fqdn, oneOf, text } from "../../config/valueTypes";
import { APPLICATION_DEFAULTS } from "./defaults";

const volumeSize = text(PATTERNS.volumeSize);
const dbIdentifier = text(PATTERNS.postgresIdentifier);
const imageTag = text(PATTERNS.imageTag);
const secretText = text({ allowed: "any non-empty text (stored encrypted)" });

/** The "Application (Bank of Sirius)" group's keys, but for its chart's (below). */
export const APPLICATION_KEYS = {
    siriusHostname: spec({
        key: "mara:siriusHostname",
        legacy: ["sirius:hostname"],
        type: fqdn(),
        defaultNote: "mara:fqdn, else the load balancer's host name",
        description: "Host name of the Bank of Sirius ingress.",
        example: "bank.example.com",
        group: "Application (Bank of Sirius)",
    }),
    siriusNamespace: spec({
        key: "mara:siriusNamespace",
        type: text(PATTERNS.dnsLabel),
        default: APPLICATION_DEFAULTS.namespace,
        description: "Namespace of Bank of Sirius.",
        group: "Application (Bank of Sirius)",
    }),
    siriusImageRegistry: spec({
        key: "mara:siriusImageRegistry",
        type: text({ pattern: /^[a-z0-9.-]+(:\d+)?(\/[a-z0-9._-]+)*$/, allowed: "a registry and path prefix such as ghcr.io/nginxinc" }),
        default: APPLICATION_DEFAULTS.imageRegistry,
        description: "Where the bos-* images are pulled from (set it to use a mirror).",
        group: "Application (Bank of Sirius)",
    }),
    siriusImageTag: spec({
        key: "mara:siriusImageTag",
        type: imageTag,
        default: APPLICATION_DEFAULTS.imageTag,
        description: "Tag of the bos-* images.",
        group: "Application (Bank of Sirius)",
    }),
    siriusDbStorageSize: spec({
        key: "mara:siriusDbStorageSize",
        type: volumeSize,
        default: APPLICATION_DEFAULTS.dbStorageSize,
        description: "Volume size of each Bank of Sirius database.",
        group: "Application (Bank of Sirius)",
    }),
    siriusRouting: spec({
        key: "mara:siriusRouting",
        type: oneOf(["ingress", "virtualserver"] as const),
        default: APPLICATION_DEFAULTS.routing,
        description: "How traffic reaches the frontend: a standard Ingress, or an NGINX VirtualServer (MARA's later branch).",
        group: "Application (Bank of Sirius)",
    }),
    siriusAccountsAdmin: spec({
        key: "mara:siriusAccountsAdmin",
        legacy: ["sirius:accounts_admin"],
        type: dbIdentifier,
        default: APPLICATION_DEFAULTS.user,
        description: "User of the accounts database.",
        group: "Application (Bank of Sirius)",
    }),
    siriusAccountsDb: spec({
        key: "mara:siriusAccountsDb",
        legacy: ["sirius:accounts_db"],
        type: dbIdentifier,
        default: APPLICATION_DEFAULTS.database,
        description: "Name of the accounts database.",
        group: "Application (Bank of Sirius)",
    }),
    siriusLedgerAdmin: spec({
        key: "mara:siriusLedgerAdmin",
        legacy: ["sirius:ledger_admin"],
        type: dbIdentifier,
        default: APPLICATION_DEFAULTS.user,
        description: "User of the ledger database.",
        group: "Application (Bank of Sirius)",
    }),
    siriusLedgerDb: spec({
        key: "mara:siriusLedgerDb",
        legacy: ["sirius:ledger_db"],
        type: dbIdentifier,
        default: APPLICATION_DEFAULTS.database,
        description: "Name of the ledger database.",
        group: "Application (Bank of Sirius)",
    }),
    siriusAccountsPassword: spec({
        key: "mara:siriusAccountsPassword",
        legacy: ["sirius:accounts_pwd"],
        type: secretText,
        secret: true,
        defaultNote: "generated",
        description: "Password of the accounts database user.",
        group: "Application (Bank of Sirius)",
    }),
    siriusLedgerPassword: spec({
        key: "mara:siriusLedgerPassword",
        legacy: ["sirius:ledger_pwd"],
        type: secretText,
        secret: true,
        defaultNote: "generated",
        description: "Password of the ledger database user.",
        group: "Application (Bank of Sirius)",
    }),
    siriusDemoUser: spec({
        key: "mara:siriusDemoUser",
        legacy: ["sirius:demo_login_user"],
        type: text({ pattern: /^[\w.@-]{1,64}$/, allowed: "a user name of letters, digits, '.', '_', '@' and '-'" }),
        default: DEFAULTS.secrets.demoUser,
        description: "Demo login user created in Bank of Sirius.",
        group: "Application (Bank of Sirius)",
    }),
    siriusDemoPassword: spec({
        key: "mara:siriusDemoPassword",
        legacy: ["sirius:demo_login_pwd"],
        type: secretText,
        secret: true,
        defaultNote: "generated",
        description: "Password of the demo login user.",
        group: "Application (Bank of Sirius)",
    }),
} as const;

/** The Postgres exporter chart's version, repository and timeout keys, with MARA's `sirius:*` chart keys as aliases. */
export const APPLICATION_CHART_KEYS = chartKeys("postgresExporter", "Application (Bank of Sirius)", {
    version: ["sirius:chart_version"],
    url: ["sirius:helm_repo_url"],
});
