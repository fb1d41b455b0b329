/**
 * cert-manager's configuration keys, its one group `cert-manager`: which issuer signs the platform's certificates,
 * the ACME account and its chart's three keys. Declared with the key machinery (config/keySpec.ts) and spread
 * into the key table (config/keys.ts), so `mara validate`, Pulumi.yaml, docs/configuration.md and the prompts
 * read them as every other key.
 */
import { PATTERNS } from "../../contracts/patterns";
import { chartKeys, spec } from "../../config/keySpec";
import { httpsUrl, oneOf, text } from "../../config/valueTypes";
import { CERT_MANAGER_DEFAULTS } from "./defaults";

/** The `cert-manager` group's keys, but for its chart's (below). */
export const CERT_MANAGER_KEYS = {
    tlsIssuer: spec({
        key: "mara:tlsIssuer",
        legacy: ["sirius:cert_type"],
        type: oneOf<"selfsigned" | "acme">(["selfsigned", "acme"], { http01: "acme", "self-signed": "selfsigned" }),
        default: "selfsigned",
        description: "Issuer of the platform's TLS certificates: a self-signed ClusterIssuer, or ACME (Let's Encrypt, HTTP-01) which needs mara:acmeEmail and a public host name.",
        group: "cert-manager",
    }),
    acmeEmail: spec({
        key: "mara:acmeEmail",
        legacy: ["sirius:cert_email"],
        type: text(PATTERNS.email),
        description: "Account email for the ACME issuer; setting it creates the ACME ClusterIssuer.",
        example: "ops@example.com",
        group: "cert-manager",
    }),
    acmeServer: spec({
        key: "mara:acmeServer",
        type: httpsUrl("an https:// ACME directory URL, such as Let's Encrypt's staging directory https://acme-staging-v02.api.letsencrypt.org/directory"),
        default: CERT_MANAGER_DEFAULTS.acmeServer,
        description: "ACME directory URL (Let's Encrypt production by default; its staging URL for tests).",
        group: "cert-manager",
    }),
} as const;

/** The chart's version, repository and timeout keys, with MARA's `certmgr:*` keys as aliases. */
export const CERT_MANAGER_CHART_KEYS = chartKeys("certManager", "cert-manager", {
    version: ["certmgr:chart_version"],
    url: ["certmgr:certmgr_helm_repo_url", "certmgr:helm_repo_url"],
    timeout: ["certmgr:helm_timeout"],
});
