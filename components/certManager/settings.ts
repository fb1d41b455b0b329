/**
 * cert-manager's section of the validated configuration, and the rule across its keys. Read by config/validate.ts,
 * which resolves the keys (keys.ts) and hands this module the lookups; the section is `MaraConfig.certManager`.
 */
import type { ChartSettings } from "../../contracts";
import type { Lookup } from "../../config/lookup";
import { configSetCommand } from "../../config/problems";
import type { Findings } from "../../config/resolve";
import { CERT_MANAGER_KEYS } from "./keys";

/** cert-manager's validated settings (`MaraConfig.certManager`). */
export interface CertManagerSettings {
    /** The chart: the catalogue's pin, or the version, mirror, timeout and archive the stack sets. */
    readonly chart: ChartSettings;
    /** Issuer of the platform's certificates. */
    readonly issuer: "selfsigned" | "acme";
    /** ACME account email; an ACME ClusterIssuer is created when set. */
    readonly acmeEmail?: string;
    /** The ACME directory the ACME issuer registers with (Let's Encrypt production by default). */
    readonly acmeServer: string;
}

/** The section from the resolved keys and the chart the validation settled on (version, mirror, archive). */
export function certManagerSettings({ v, d }: Pick<Lookup, "v" | "d">, chart: ChartSettings): CertManagerSettings {
    return { chart, issuer: d("tlsIssuer"), acmeEmail: v("acmeEmail"), acmeServer: d("acmeServer") };
}

/** ACME needs an account email; it is the only setting Let's Encrypt insists on. */
export function checkCertManagerKeys({ r, v, keyOf }: Pick<Lookup, "r" | "v" | "keyOf">, findings: Findings): void {
    if (v("tlsIssuer") === "acme" && r("acmeEmail").source === undefined) {
        findings.problem({
            key: keyOf("tlsIssuer"),
            value: "acme",
            problem: "needs an ACME account email, and mara:acmeEmail is not set",
            allowed: "selfsigned, or acme together with mara:acmeEmail",
            fix: `${configSetCommand(CERT_MANAGER_KEYS.acmeEmail.key, "ops@example.com")} (or ${configSetCommand(keyOf("tlsIssuer"), "selfsigned")})`,
        });
    }
    if (v("tlsIssuer") === "acme" && v("fqdn") === undefined && v("siriusHostname") === undefined) {
        findings.warn(
            `${keyOf("tlsIssuer")} = acme without kic-helm:fqdn: the certificate would be for the load balancer's own cloud host name, ` +
                `which Let's Encrypt refuses or rate-limits; set kic-helm:fqdn to a name you own that points at the load balancer.`,
        );
    }
}
